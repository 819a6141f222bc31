/**
 * Which rows the serving bench measures, from what the service answers: for each endpoint of
 * the catalogue (and each variant), the candidate paths found by discover-paths.ts are fetched
 * once; those answering 200 make its hot row (the first) and its spread row (all), and their
 * responses are what the bare server replays. An endpoint this build lacks, or one with no
 * path answering 200, is left out with a note.
 */
import { captureResponses, getRaw, type CapturedResponse } from './capture.ts';
import type { Discovery } from './discover-paths.ts';
import { ENDPOINTS, VARIANTS, type EndpointSpec } from './endpoint-catalogue.ts';

/** A row to measure: the subject and baseline servers, the paths and the headers. */
export interface PlannedRow {
  spec: { id: string; label: string; goal: number | null };
  kind: 'endpoint' | 'variant';
  mode: 'hot' | 'spread';
  paths: string[];
  headers: Record<string, string>;
  /** The service's environment on top of the bench's; {} is the service as measured by default. */
  subjectEnv: Readonly<Record<string, string>>;
  /** null: the bare server. */
  baselineEnv: Readonly<Record<string, string>> | null;
  baselineLabel: string;
}

export interface RowPlan {
  rows: PlannedRow[];
  /** What the bare server replays, by path. */
  captured: Map<string, CapturedResponse>;
}

export async function planRows(
  origin: string,
  discovery: Discovery,
  options: {
    apiKey: string;
    only: ReadonlySet<string> | null;
    modes: ReadonlyArray<'hot' | 'spread'>;
    spread: number;
    encoding: 'gzip' | 'identity';
  },
  notes: string[],
): Promise<RowPlan> {
  const wanted = (id: string): boolean => options.only === null || options.only.has(id);
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
    const answers = await captureResponses(origin, candidates, headers);
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
    if (variant.requiresPath && (await getRaw(origin + variant.requiresPath, {})).status === 404) {
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

  return { rows: planned, captured };
}

function headersOf(
  spec: EndpointSpec,
  plain: Record<string, string>,
  keyed: Record<string, string>,
): Record<string, string> {
  if (spec.id === 'telemetry') return { 'accept-encoding': plain['accept-encoding']! };
  return spec.keyed ? keyed : plain;
}
