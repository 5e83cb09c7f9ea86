import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// drizzle-kit writes references as "public"."table"; the migrations must follow the connection's
// search_path instead (tests run each PostgreSQL database in a schema of its own), so strip it.
const args = process.argv.slice(2);
const result = spawnSync(path.resolve('node_modules/.bin/drizzle-kit'), ['generate', ...args], {
  stdio: 'inherit',
});
if (result.status !== 0) process.exit(result.status ?? 1);
const dir = path.resolve('db/migrations');
for (const name of readdirSync(dir).filter((n) => n.endsWith('.sql'))) {
  const file = path.join(dir, name);
  const sql = readFileSync(file, 'utf8');
  const relocatable = sql.replaceAll('"public".', '');
  if (relocatable !== sql) {
    writeFileSync(file, relocatable);
    console.log(`made ${name} schema-relocatable`);
  }
}
