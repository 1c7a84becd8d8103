// The printed report (one table of rows, then derived figures and PASS/FAIL lines per scenario) and
// the JSON document with the same numbers plus the machine they were measured on.
import os from 'node:os';
import type { BenchSettings, Check, Figure, Row, ScenarioResult } from './types.ts';

export interface Machine {
  nproc: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  os: string;
}

export interface ScenarioReport extends ScenarioResult {
  id: string;
  title: string;
}

export interface BenchReport {
  generatedAt: string;
  machine: Machine;
  /** os.loadavg() (1, 5, 15 min) before and after the run: other work on the machine skews every row. */
  loadAverage: { start: number[]; end: number[] };
  settings: BenchSettings;
  scenarios: ScenarioReport[];
}

export function machine(): Machine {
  return {
    nproc: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Number((os.totalmem() / 1024 ** 3).toFixed(1)),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

const ms = (value: number | undefined): string => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(2));
const pct = (value: number | undefined): string => (value === undefined ? '–' : value.toFixed(0));

const COLUMNS = ['', 'what', 'req/s', 'p50 ms', 'p99 ms', 'TTFB p50', 'TTFB p99', 'CPU % proxy/upstr/load', 'proxy µs/req', 'failed'];
const RIGHT_ALIGNED = new Set([2, 3, 4, 5, 6, 7, 8, 9]);

function cells(row: Row): string[] {
  const cpu = `${pct(row.cpu.target)} / ${pct(row.cpu.upstream)} / ${pct(row.cpu.load)}`;
  const perRequest = row.cpu.targetMicrosPerRequest === undefined ? '–' : row.cpu.targetMicrosPerRequest.toFixed(0);
  return [
    row.id,
    row.label,
    row.requestsPerSec.toFixed(0),
    ms(row.latency.p50),
    ms(row.latency.p99),
    ms(row.ttfb?.p50),
    ms(row.ttfb?.p99),
    cpu,
    perRequest,
    String(row.failures),
  ];
}

export function formatTable(rows: readonly Row[]): string {
  const body = rows.map(cells);
  const widths = COLUMNS.map((title, i) => Math.max(title.length, ...body.map((line) => line[i]?.length ?? 0)));
  const line = (values: readonly string[]): string =>
    values.map((value, i) => (RIGHT_ALIGNED.has(i) ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0))).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return [line(COLUMNS), rule, ...body.map(line)].join('\n');
}

const figureLine = (figure: Figure): string => `  ${figure.label}: ${figure.value} ${figure.unit}`;
const checkLine = (check: Check): string => `  ${check.pass ? 'PASS' : 'FAIL'}  ${check.target}: ${check.actual}`;

export function formatReport(report: BenchReport): string {
  const { machine: m, settings: s } = report;
  const out = [
    `model-gateway bench: ${m.nproc} CPUs (${m.cpu}), node ${m.node}, ${m.os}`,
    `${s.connections} connection${s.connections === 1 ? '' : 's'}, ${s.warmupS} s warm-up + ${s.rounds} × ${s.durationS} s per row; streams: ${s.streamChunks} frames, ${s.chunkDelayMs} ms apart`,
    `load average at start ${report.loadAverage.start.map((v) => v.toFixed(2)).join(' ')}, at end ${report.loadAverage.end.map((v) => v.toFixed(2)).join(' ')}`,
  ];
  for (const scenario of report.scenarios) {
    out.push('', `== ${scenario.title}`);
    if (scenario.rows.length > 0) out.push(formatTable(scenario.rows));
    if (scenario.rows.some((row) => row.kind === 'stream')) out.push('  (stream rows: p50/p99 are time to the last byte, TTFB to the first body byte, proxy µs/req is per stream)');
    if (scenario.figures.length > 0) out.push('', ...scenario.figures.map(figureLine));
    if (scenario.checks.length > 0) out.push('', ...scenario.checks.map(checkLine));
  }
  return out.join('\n');
}
