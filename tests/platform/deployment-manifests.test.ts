/**
 * The deployment manifests (issue #29) checked without Docker or a cluster, neither of which runs here:
 * infra/docker-compose.yml and infra/kubernetes/ parsed as YAML; every probe and health check must name a
 * path the apps answer (answerHealth, what the servers run) on the port the app listens on; the settings
 * in the ConfigMap, Secret and compose environment must pass the platform's own configuration check;
 * Services, HPAs, PDBs and the Ingress must point at what exists.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@iot/config';
import { chooseEventLogAdapter } from '@iot/event-log';
import { answerHealth, Health } from '@iot/runtime';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const INFRA = fileURLToPath(new URL('../../infra', import.meta.url));
const K8S = join(INFRA, 'kubernetes');

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked field by field below.
type Manifest = any;

const manifests: Manifest[] = readdirSync(K8S)
  .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
  .flatMap((f) => parseAllDocuments(readFileSync(join(K8S, f), 'utf8')).map((d) => d.toJS()))
  .filter(Boolean);
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const byName = (kind: string, name: string) => ofKind(kind).find((m) => m.metadata.name === name);

/** A path the apps answer with something other than 404 (what their health servers run). */
async function answered(path: string): Promise<boolean> {
  const answer = await answerHealth(
    { path, remoteAddress: '127.0.0.1', authorization: undefined },
    new Health(),
    undefined,
  );
  return answer.status !== 404;
}

const settings = () => {
  const config = byName('ConfigMap', 'iot-config');
  const secret = byName('Secret', 'iot-secrets');
  return { ...config.data, ...secret.stringData };
};

/** The port an app of this Deployment listens on for health: the API on PORT, the workers on HEALTH_PORT. */
function healthPort(deployment: string): number {
  const config = loadConfig(settings());
  return deployment === 'api' ? config.PORT : (config.HEALTH_PORT ?? -1);
}

describe('Kubernetes manifests', () => {
  it('lists every manifest file in the kustomization', () => {
    const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8'));
    const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...kustomization.resources].sort()).toEqual(files.sort());
  });

  it('carries settings the platform accepts', () => {
    const config = loadConfig(settings());
    expect(config.PROFILE).toBe('distributed');
    expect(config.HEALTH_PORT).toBe(9090);
  });

  it('has a Deployment per app with probes on real health routes and ports, and resources', async () => {
    const names = ofKind('Deployment').map((d) => d.metadata.name);
    expect(names.sort()).toEqual(['api', 'ingest', 'notifier', 'rules-worker']);
    for (const deployment of ofKind('Deployment')) {
      const name = deployment.metadata.name;
      expect(deployment.spec.selector.matchLabels).toEqual(
        expect.objectContaining(deployment.spec.selector.matchLabels),
      );
      for (const [key, value] of Object.entries(deployment.spec.selector.matchLabels))
        expect(deployment.spec.template.metadata.labels[key], name).toBe(value);
      const [container] = deployment.spec.template.spec.containers;
      const ports = container.ports.map((p: { containerPort: number }) => p.containerPort);
      for (const probe of ['livenessProbe', 'readinessProbe']) {
        const { path, port } = container[probe].httpGet;
        expect(await answered(path), `${name} ${probe} ${path}`).toBe(true);
        expect(port, `${name} ${probe} port`).toBe(healthPort(name));
        expect(ports, `${name} exposes ${port}`).toContain(port);
      }
      expect(container.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(container.livenessProbe.httpGet.path).toBe('/health/live');
      expect(container.resources.requests.cpu && container.resources.limits.memory, name).toBeTruthy();
      for (const ref of container.envFrom) {
        const target = ref.configMapRef
          ? byName('ConfigMap', ref.configMapRef.name)
          : byName('Secret', ref.secretRef.name);
        expect(target, `${name} envFrom`).toBeDefined();
      }
    }
    // Migrations before the API serves: an init container running the migration entry point.
    const init = byName('Deployment', 'api').spec.template.spec.initContainers[0];
    expect(init.command).toEqual(['node', 'apps/api/dist/migrate.js']);
  });

  it('scales ingest and the rules worker, and keeps each app available during disruptions', () => {
    expect(
      ofKind('HorizontalPodAutoscaler')
        .map((h) => h.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual(['ingest', 'rules-worker']);
    for (const hpa of ofKind('HorizontalPodAutoscaler'))
      expect(byName('Deployment', hpa.spec.scaleTargetRef.name)).toBeDefined();
    for (const deployment of ofKind('Deployment')) {
      const pdb = ofKind('PodDisruptionBudget').find(
        (p) => p.spec.selector.matchLabels['app.kubernetes.io/name'] === deployment.metadata.name,
      );
      expect(pdb, `PDB of ${deployment.metadata.name}`).toBeDefined();
    }
  });

  it('routes /ingest/v1 and the API through one Ingress host to Services that reach the apps', () => {
    const [ingress] = ofKind('Ingress');
    const [rule] = ingress.spec.rules;
    const backend = (path: string) =>
      rule.http.paths.find((p: { path: string }) => p.path === path).backend.service;
    const config = loadConfig(settings());
    const expected: Record<string, [string, number]> = {
      '/ingest/v1': ['ingest', config.INGEST_PORT ?? config.PORT + 1],
      '/': ['api', config.PORT],
    };
    for (const [path, [serviceName, appPort]] of Object.entries(expected)) {
      const ref = backend(path);
      expect(ref.name).toBe(serviceName);
      const service = byName('Service', serviceName);
      const port = service.spec.ports.find((p: { name: string }) => p.name === ref.port.name);
      expect(port.targetPort, `${serviceName} reaches the app's port`).toBe(appPort);
      expect(byName('Deployment', service.spec.selector['app.kubernetes.io/name'])).toBeDefined();
    }
  });
});

/** Compose's `${VAR:-default}` as with VAR unset, `${VAR:?message}` as with VAR set to a valid secret. */
function interpolated(environment: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(environment).map(([key, value]) => [
      key,
      String(value)
        .replace(/\$\{\w+:-([^}]*)\}/g, '$1')
        .replace(/\$\{\w+:\?[^}]*\}/g, 'x'.repeat(32)),
    ]),
  );
}

describe('docker-compose.yml', () => {
  const compose = parse(readFileSync(join(INFRA, 'docker-compose.yml'), 'utf8'), { merge: true });
  const apps = ['api', 'ingest', 'rules-worker', 'notifier'];

  it('gives every app a health check on a real route and port, restarts and limits', async () => {
    for (const name of apps) {
      const service = compose.services[name];
      const command: string = service.healthcheck.test.join(' ');
      const url = /http:\/\/127\.0\.0\.1:(\d+)(\/[^'"]*)/.exec(command);
      expect(url, name).not.toBeNull();
      expect(await answered(url?.[2] ?? ''), `${name} ${url?.[2]}`).toBe(true);
      const config = loadConfig(interpolated(service.environment));
      expect(Number(url?.[1]), `${name} port`).toBe(name === 'api' ? config.PORT : config.HEALTH_PORT);
      expect(service.restart).toBe('unless-stopped');
      expect(service.deploy.resources.limits.memory).toBeTruthy();
      expect(service.depends_on.migrate.condition).toBe('service_completed_successfully');
    }
    expect(compose.services.migrate.command).toEqual(['node', 'apps/api/dist/migrate.js']);
    for (const dependency of ['postgres', 'redis', 'nats'])
      expect(compose.services[dependency].healthcheck.test.length).toBeGreaterThan(1);
  });
});

/** Compose's `!override` (replace the base file's value instead of merging), as a plain mapping. */
const OVERRIDE_TAG = { tag: '!override', collection: 'map' as const, resolve: (map: unknown) => map };

/** What compose makes of an override file's service over the base file's: maps merged, !override replaced. */
function mergedService(base: Manifest, override: Manifest): Manifest {
  return {
    ...base,
    ...override,
    environment: { ...base.environment, ...override.environment },
    depends_on: override.depends_on ?? base.depends_on,
  };
}

describe('the distributed profile with Kafka (issue #29)', () => {
  const base = parse(readFileSync(join(INFRA, 'docker-compose.yml'), 'utf8'), { merge: true });
  const kafka = parse(readFileSync(join(INFRA, 'docker-compose.kafka.yml'), 'utf8'), {
    merge: true,
    customTags: [OVERRIDE_TAG],
  });

  it('compose: every app reads Kafka, waits for a healthy broker, and no longer needs NATS', () => {
    for (const name of ['api', 'ingest', 'rules-worker', 'notifier']) {
      const service = mergedService(base.services[name], kafka.services[name]);
      const config = loadConfig(interpolated(service.environment));
      expect(chooseEventLogAdapter(config), name).toBe('kafka');
      expect(config.KAFKA_BROKERS).toBe('kafka:9092');
      expect(service.depends_on.kafka.condition).toBe('service_healthy');
      expect(service.depends_on.nats, name).toBeUndefined();
      // What the base file waits for besides NATS is still waited for.
      for (const dependency of Object.keys(base.services[name].depends_on).filter((d) => d !== 'nats'))
        expect(service.depends_on[dependency], `${name} ${dependency}`).toEqual(
          base.services[name].depends_on[dependency],
        );
    }
    expect(kafka.services.kafka.healthcheck.test.join(' ')).toContain('localhost:9092');
    expect(kafka.services.kafka.environment.KAFKA_ADVERTISED_LISTENERS).toBe('PLAINTEXT://kafka:9092');
    expect(kafka.services.nats.profiles).toEqual(['nats']);
  });

  it('kubernetes: the kafka overlay patches the base ConfigMap to Kafka and drops NATS_URL', () => {
    const overlay = join(K8S, 'kafka');
    const kustomization = parse(readFileSync(join(overlay, 'kustomization.yaml'), 'utf8'));
    expect(kustomization.resources).toEqual(['../']);
    const [patchRef] = kustomization.patches;
    const patch = parse(readFileSync(join(overlay, patchRef.path), 'utf8'));
    const target = byName(patch.kind, patch.metadata.name);
    expect(target, 'the patch names a manifest of the base').toBeDefined();
    // A strategic merge patch of a ConfigMap's data: keys set, null deletes.
    const data: Record<string, string> = { ...target.data };
    for (const [key, value] of Object.entries(patch.data as Record<string, string | null>)) {
      if (value === null) delete data[key];
      else data[key] = value;
    }
    const config = loadConfig({ ...data, ...byName('Secret', 'iot-secrets').stringData });
    expect(chooseEventLogAdapter(config)).toBe('kafka');
    expect(config.NATS_URL).toBeUndefined();
  });
});
