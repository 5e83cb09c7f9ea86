import { ensureBuild, launchProduction, stopOnSignals } from './launch.ts';

try {
  ensureBuild();
  const running = await launchProduction();
  stopOnSignals(() => running.stop());
  console.log(`
  Site            ${running.siteUrl}
  Data API        ${running.dataApiUrl}
  Auth emulator   ${running.authEmulatorHost ? `http://${running.authEmulatorHost}` : 'not used (real Firebase project)'}

  Ctrl-C stops all of them.
`);
} catch (error) {
  console.error(`Could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
