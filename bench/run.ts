// `npm run bench`: runs every scenario in bench/scenarios/ (see docs/performance.md). This process is the
// load generator; the fake upstream, the reference proxy and the gateway each run in a child process of
// their own (services.ts). The report goes to stdout; the JSON goes to BENCH_OUT, or after the report.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatReport, machine } from './report.ts';
import type { BenchReport, ScenarioReport } from './report.ts';
import { SCENARIOS } from './scenarios/index.ts';
import { Services } from './services.ts';
import { readSettings, selectedIds } from './settings.ts';
import type { BenchContext, Row } from './types.ts';

const log = (message: string): void => void process.stderr.write(`[bench] ${message}\n`);

async function runScenarios(context: BenchContext, ids: readonly string[], rows: Map<string, Row>): Promise<ScenarioReport[]> {
  const reports: ScenarioReport[] = [];
  for (const scenario of SCENARIOS.filter((s) => ids.includes(s.id))) {
    log(`scenario ${scenario.id}: ${scenario.title}`);
    try {
      const result = await scenario.run(context);
      for (const row of result.rows) rows.set(row.id, row);
      reports.push({ id: scenario.id, title: scenario.title, ...result });
    } finally {
      await context.services.closeAll();
    }
  }
  return reports;
}

async function main(): Promise<void> {
  const settings = readSettings(process.env);
  const ids = selectedIds(process.env, SCENARIOS.map((s) => s.id));
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'gateway-bench-'));
  const services = new Services(settings.cpuProfileDir);
  const rows = new Map<string, Row>();
  const loadAtStart = os.loadavg();
  const stop = (): void => {
    log('interrupted: stopping services');
    void services.closeAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  try {
    const scenarios = await runScenarios({ settings, services, workDir, rows, log }, ids, rows);
    const report: BenchReport = {
      generatedAt: new Date().toISOString(),
      machine: machine(),
      loadAverage: { start: loadAtStart, end: os.loadavg() },
      settings,
      scenarios,
    };
    process.stdout.write(`${formatReport(report)}\n`);
    const json = `${JSON.stringify(report, null, 2)}\n`;
    const out = process.env.BENCH_OUT?.trim();
    if (out) {
      writeFileSync(out, json);
      log(`JSON written to ${path.resolve(out)}`);
    } else {
      process.stdout.write(`\n${json}`);
    }
  } finally {
    await services.closeAll();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
