/**
 * The serving part of the bench: starts the service on the bench data, finds the paths of every
 * endpoint of the catalogue, captures the service's answers for the bare server, then measures
 * each row (each endpoint hot and spread, then the variants) against its baseline.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChildRegistry } from './children.ts';
import { stopChild } from './children.ts';
import { writeBareManifest } from './capture.ts';
import { discoverPaths } from './discover-paths.ts';
import { measureRow, type LoadSettings, type SideResult } from './measure-row.ts';
import { planRows, type PlannedRow } from './plan-rows.ts';
import { startBareServer, startService, type RunningServer } from './servers.ts';
import { runWrk } from './wrk.ts';

/** Unmeasured seconds of load on a server before its first row. */
const FIRST_WARMUP_SECONDS = 3;

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

export async function measureServing(
  children: ChildRegistry,
  options: ServingOptions,
  notes: string[],
): Promise<RowResult[]> {
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
        stdout: { file: path.join(options.workDir, `${label.replace(/\W+/g, '-')}.log`) },
      });
      services.set(key, server);
    }
    return server;
  };

  const service = await serviceWith({});
  options.log('Finding the paths of every endpoint…');
  const discovery = await discoverPaths(service.origin, options.apiKey, options.spread);

  const { rows: planned, captured } = await planRows(service.origin, discovery, options, notes);

  const manifest = path.join(options.workDir, 'bare-manifest.json');
  writeBareManifest(manifest, captured);
  const bare = await startBareServer(children, manifest, options.serverCpus);

  const results: RowResult[] = [];
  const warmed = new Set<number>();
  try {
    for (const [index, row] of planned.entries()) {
      const subject = await serviceWith(row.subjectEnv);
      const baseline = row.baselineEnv === null ? bare : await serviceWith(row.baselineEnv);
      const what = row.kind === 'variant' ? 'variant' : row.mode;
      options.log(
        `[${index + 1}/${planned.length}] ${row.spec.label} (${what}, ${row.paths.length} ` +
          `path${row.paths.length > 1 ? 's' : ''}) vs ${row.baselineLabel}`,
      );
      // A process just started runs cold (JIT tiers, caches) for seconds: once per process.
      for (const server of [subject, baseline].filter((server) => !warmed.has(server.pid))) {
        await runWrk(
          children,
          { ...options.load, origin: server.origin, ...row },
          FIRST_WARMUP_SECONDS,
        );
        warmed.add(server.pid);
      }
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
