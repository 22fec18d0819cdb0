/**
 * Embedded profile: an MQTT broker (aedes) inside the ingest process. Each device connects with
 * username = its uuid and password = its token (checked against devices.credentials_hash), may publish
 * only to `devices/<uuid>/up` and subscribe only to `devices/<uuid>/down`. An uplink is decoded and
 * handed to the event log inside authorizePublish, which aedes runs before it sends the PUBACK: a QoS 1
 * publisher gets its PUBACK only once the log accepted the uplink, so a full log slows it down.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import {
  acceptUplink,
  companyMaySend,
  gateUplink,
  type IngestContext,
  refusalFor,
} from '../accept/ingest-context.js';
import { DeviceDirectory } from '../devices/device-directory.js';
import { downTopic, upTopic } from './mqtt-acl.js';
import { ConnectionGuard, DEFAULT_MQTT_LIMITS, type MqttLimits } from './mqtt-guard.js';
import { MAX_MQTT_PAYLOAD, readMqttPayload } from './mqtt-uplink.js';

export type { MqttLimits } from './mqtt-guard.js';

export interface EmbeddedBroker {
  /** The port it listens on (useful with port 0). */
  port: number;
  broker: Aedes;
  close(): Promise<void>;
}

const BAD_USERNAME_OR_PASSWORD = 4;

function authError(message: string): AuthenticateError {
  return Object.assign(new Error(message), { returnCode: BAD_USERNAME_OR_PASSWORD }) as AuthenticateError;
}

export async function startEmbeddedBroker(options: {
  ctx: IngestContext;
  port: number;
  host?: string;
  /** Connection caps and the connect time-out (issue #28); defaults when left out. */
  limits?: MqttLimits;
}): Promise<EmbeddedBroker> {
  const { ctx } = options;
  const limits = options.limits ?? DEFAULT_MQTT_LIMITS;
  const log = ctx.log.child({ door: 'mqtt-embedded' });
  const guard = new ConnectionGuard(limits, log);
  // The uuid a connection authenticated as; set in authenticate, read on every publish.
  const uuids = new WeakMap<Client, string>();

  const broker = await Aedes.createBroker({
    connectTimeout: limits.connectTimeoutMs,
    authenticate: (client, username, password, done) => {
      const token = password?.toString('utf8') ?? '';
      ctx.directory
        .deviceByUuid(username ?? '')
        .then(async (device) => {
          if (!device || refusalFor(device) !== null || !DeviceDirectory.checkDeviceToken(device, token)) {
            log.warn(
              {
                username,
                clientId: client.id,
                reason: device ? 'wrong token or disposed' : 'unknown device',
              },
              'mqtt connect refused',
            );
            return done(authError('bad username or password'), false);
          }
          if (!(await companyMaySend(ctx, device))) {
            log.warn(
              { username, clientId: client.id, reason: 'company blocked or deleted' },
              'mqtt connect refused',
            );
            return done(authError('company blocked or deleted'), false);
          }
          uuids.set(client, device.uuid);
          guard.authenticated(client.conn as Socket);
          done(null, true);
        })
        .catch((error: unknown) => {
          log.error({ err: error }, 'mqtt authentication failed');
          done(Object.assign(new Error('server unavailable'), { returnCode: 3 }) as AuthenticateError, false);
        });
    },
    authorizePublish: (client, packet, done) => {
      // Publishes of the broker itself (client null) are ours.
      if (!client) return done(null);
      const uuid = uuids.get(client);
      if (!uuid || packet.topic !== upTopic(uuid)) {
        log.warn(
          { clientId: client.id, uuid, topic: packet.topic },
          'mqtt publish refused: not the device topic',
        );
        return done(new Error('not authorized'));
      }
      if (packet.payload.length > MAX_MQTT_PAYLOAD) {
        log.warn({ uuid, bytes: packet.payload.length }, 'mqtt uplink refused: payload too large');
        return done(new Error('payload too large'));
      }
      const receivedAt = new Date();
      ctx.directory
        .deviceByUuid(uuid)
        .then(async (device) => {
          if (!device || refusalFor(device) !== null) {
            log.warn({ uuid, reason: device ? 'disposed' : 'unknown device' }, 'mqtt uplink refused');
            throw new Error('device may not send');
          }
          // Blocked, deleted or over the company's uplinks per minute: no PUBACK, the connection closes
          // (MQTT 3.1.1 has no refusal for a publish); counted and logged by the gate.
          const refusal = await gateUplink(ctx, device, 'mqtt-embedded');
          if (refusal) throw new Error(`uplink refused: ${refusal}`);
          await acceptUplink(
            ctx,
            { device, source: 'mqtt', payload: readMqttPayload(packet.payload as Buffer), receivedAt },
            'wait',
          );
        })
        .then(
          () => done(null),
          (error: unknown) => done(error as Error),
        );
    },
    authorizeSubscribe: (client, subscription, done) => {
      const uuid = uuids.get(client);
      if (uuid && subscription.topic === downTopic(uuid)) return done(null, subscription);
      log.warn({ clientId: client.id, topic: subscription.topic }, 'mqtt subscribe refused');
      // null subscription: a negative SUBACK, the connection stays.
      done(null, null);
    },
  });

  const server: Server = createServer((socket) => {
    if (guard.admit(socket)) broker.handle(socket);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  log.info({ port }, 'embedded MQTT broker listening');

  return {
    port,
    broker,
    close: async () => {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
