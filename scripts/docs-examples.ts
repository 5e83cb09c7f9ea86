import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  generateReferenceData,
  REFERENCE_DATA_FILE,
  serializeReferenceData,
} from '../src/server/docs/examples.ts';

/**
 * `npm run docs:examples`: answers every endpoint's example query over the demo data set and reads
 * the plan catalogue, in a throwaway in-memory database, and stores both for the API reference pages
 * (src/content/reference/examples.json, committed). Run it after changing an endpoint, its example,
 * the demo data generator or the plans; a test fails while the stored copy is out of date.
 */
async function main(): Promise<void> {
  const started = performance.now();
  const data = await generateReferenceData();
  const file = path.resolve(REFERENCE_DATA_FILE);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, serializeReferenceData(data));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Wrote ${String(Object.keys(data.examples).length)} example answers and ${String(data.plans.length)} plans to ${REFERENCE_DATA_FILE} in ${seconds} s.`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`docs:examples failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
