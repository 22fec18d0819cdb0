import { NetworkServerForm } from './network-server-form';
import { WebhookTokens } from './webhook-tokens';

/**
 * The company's connections to LoRaWAN network servers and scripts (ROLE_ADMIN and ROLE_MAINUSER): the
 * webhook tokens they send uplinks with, and the network server LoRaWAN devices get their downlinks from.
 */
export function IntegrationsPanel() {
  return (
    <div className="flex flex-col gap-6" data-testid="integrations">
      <WebhookTokens />
      <NetworkServerForm />
    </div>
  );
}
