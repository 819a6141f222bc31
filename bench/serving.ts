/**
 * The serving part of the bench: starts the service on the bench data, finds the paths of every
 * endpoint of the catalogue, captures the service's answers for the bare server, then measures
 * each row (each endpoint hot and spread, then the variants) against its baseline.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildRegistry } from './children.ts';
import { stopChild } from './children.ts';
import { captureResponses, writeBareManifest, type CapturedResponse } from './capture.ts';
import { discoverPaths } from './discover-paths.ts';
import { ENDPOINTS, VARIANTS, type EndpointSpec } from './endpoint-catalogue.ts';
import { measureRow, type LoadSettings, type SideResult } from './measure-row.ts';
import { startBareServer, startService, type RunningServer } from './servers.ts';
import { getRaw } from './capture.ts';

export interface ServingOptions {
  dataDir: string;
  apiKey: string;
  /** Row ids to measure (endpoint and variant ids); null: all. */
  only: ReadonlySet<string> | null;
  modes: ReadonlyArray<'hot' | 'spread'>;
  spread: number;
  encoding: 'gzip' | 'identity';
  load: LoadSettings;
  serverCpus: string | null;
  cpuProfDir: string | undefined;
  workDir: string;
  log: (line: string) => void;
}

export interface RowResult {
  id: string;
  label: string;
  kind: 'endpoint' | 'variant';
  mode: 'hot' | 'spread';
  /** Distinct paths requested. */
  paths: number;
  baselineLabel: string;
  goal: number | null;
  subject: SideResult;
  baseline: SideResult;
  /** Subject req/s ÷ baseline req/s. */
  requestsRatio: number;
  /** Baseline CPU/request ÷ subject CPU/request (so 1 is "as cheap as the baseline"). */
  cpuRatio: number | null;
}

interface PlannedRow {
  spec: { id: string; label: string; goal: number | null };
  kind: RowResult['kind'];
  mode: RowResult['mode'];
  paths: string[];
  headers: Record<string, string>;
  subjectEnv: Readonly<Record<string, string>>;
  /** null: the bare server. */
  baselineEnv: Readonly<Record<string, string>> | null;
  baselineLabel: string;
}

export async function measureServing(
  children: ChildRegistry,
  options: ServingOptions,
  notes: string[],
): Promise<RowResult[]> {
  const wanted = (id: string): boolean => options.only === null || options.only.has(id);
  const services = new Map<string, RunningServer>();
  const serviceWith = async (env: Readonly<Record<string, string>>): Promise<RunningServer> => {
    const key = JSON.stringify(env);
    let server = services.get(key);
    if (!server) {
      const label = Object.keys(env).length === 0 ? 'service' : `service ${envText(env)}`;
      server = await startService(children, {
        label,
        dataDir: options.dataDir,
        env,
        cpus: options.serverCpus,
        cpuProfDir: options.cpuProfDir,
      });
      services.set(key, server);
    }
    return server;
  };

  const service = await serviceWith({});
  options.log('Finding the paths of every endpoint…');
  const discovery = await discoverPaths(service.origin, options.apiKey, options.spread);
  const plain = { accept: 'application/vnd.api+json', 'accept-encoding': options.encoding };
  const keyed = { ...plain, authorization: `Bearer ${options.apiKey}` };

  const planned: PlannedRow[] = [];
  const captured = new Map<string, CapturedResponse>();
  const okPaths = new Map<string, string[]>();
  for (const spec of ENDPOINTS) {
    const forVariant = VARIANTS.some((v) => v.endpoint === spec.id && wanted(v.id));
    if (!wanted(spec.id) && !forVariant) continue;
    if (spec.requiresRoute && !discovery.routes.has(spec.requiresRoute)) {
      notes.push(`${spec.label}: skipped, no route ${spec.requiresRoute} on this build`);
      continue;
    }
    const headers = headersOf(spec, plain, keyed);
    const candidates = (discovery.paths.get(spec.id) ?? []).slice(0, options.spread);
    const answers = await captureResponses(service.origin, candidates, headers);
    const ok = candidates.filter((p) => answers.get(p)?.status === 200);
    if (ok.length === 0) {
      const first = candidates[0];
      const status = first === undefined ? 'no path found' : `${answers.get(first)?.status}`;
      notes.push(`${spec.label}: skipped, ${first ?? ''} answered ${status}`);
      continue;
    }
    if (ok.length < candidates.length) {
      notes.push(
        `${spec.label}: ${candidates.length - ok.length} of ${candidates.length} paths not 200, left out`,
      );
    }
    for (const p of ok) captured.set(p, answers.get(p)!);
    okPaths.set(spec.id, ok);
    const modes = wanted(spec.id) ? spec.modes.filter((m) => options.modes.includes(m)) : [];
    for (const mode of modes) {
      if (mode === 'spread' && ok.length < 2) continue;
      planned.push({
        spec,
        kind: 'endpoint',
        mode,
        paths: mode === 'hot' ? [ok[0]!] : ok,
        headers,
        subjectEnv: {},
        baselineEnv: null,
        baselineLabel: 'bare',
      });
    }
  }
  for (const variant of VARIANTS) {
    const ok = okPaths.get(variant.endpoint);
    if (!wanted(variant.id) || ok === undefined) continue;
    if (
      variant.requiresPath &&
      (await getRaw(service.origin + variant.requiresPath, {})).status === 404
    ) {
      notes.push(`${variant.label}: skipped, no ${variant.requiresPath} on this build`);
      continue;
    }
    planned.push({
      spec: variant,
      kind: 'variant',
      mode: variant.mode,
      paths: variant.mode === 'hot' ? [ok[0]!] : ok,
      headers: headersOf(
        ENDPOINTS.find((e) => e.id === variant.endpoint)!,
        plain,
        keyed,
      ),
      subjectEnv: variant.subjectEnv,
      baselineEnv: variant.baselineEnv,
      baselineLabel: variant.baselineLabel,
    });
  }

  const manifest = path.join(options.workDir, 'bare-manifest.json');
  writeBareManifest(manifest, captured);
  const bare = await startBareServer(children, manifest, options.serverCpus);

  const results: RowResult[] = [];
  try {
    for (const [index, row] of planned.entries()) {
      const subject = await serviceWith(row.subjectEnv);
      const baseline = row.baselineEnv === null ? bare : await serviceWith(row.baselineEnv);
      const what = row.kind === 'variant' ? 'variant' : row.mode;
      options.log(
        `[${index + 1}/${planned.length}] ${row.spec.label} (${what}, ${row.paths.length} ` +
          `path${row.paths.length > 1 ? 's' : ''}) vs ${row.baselineLabel}`,
      );
      const measured = await measureRow(
        children,
        subject,
        baseline,
        row,
        options.load,
        options.log,
      );
      results.push(rowResult(row, measured.subject, measured.baseline));
      if (row.kind === 'variant') {
        // A variant's own services are not needed by later rows.
        for (const [key, server] of services) {
          if (key === '{}') continue;
          await stopChild(server.child);
          services.delete(key);
        }
      }
    }
  } finally {
    await Promise.all([bare, ...services.values()].map((server) => stopChild(server.child)));
    fs.rmSync(manifest, { force: true });
  }
  return results;
}

function headersOf(
  spec: EndpointSpec,
  plain: Record<string, string>,
  keyed: Record<string, string>,
): Record<string, string> {
  if (spec.id === 'telemetry') return { 'accept-encoding': plain['accept-encoding']! };
  return spec.keyed ? keyed : plain;
}

function envText(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
}

function rowResult(row: PlannedRow, subject: SideResult, baseline: SideResult): RowResult {
  return {
    id: row.spec.id,
    label: row.spec.label,
    kind: row.kind,
    mode: row.mode,
    paths: row.paths.length,
    baselineLabel: row.baselineLabel,
    goal: row.spec.goal,
    subject,
    baseline,
    requestsRatio:
      baseline.requestsPerSecond > 0 ? subject.requestsPerSecond / baseline.requestsPerSecond : 0,
    cpuRatio:
      subject.cpuMicrosPerRequest && baseline.cpuMicrosPerRequest
        ? baseline.cpuMicrosPerRequest / subject.cpuMicrosPerRequest
        : null,
  };
}
