// Prints, for each file named on the command line, whether node compiles it
// as an ECMAScript module: one JSON line {"file", "ok", "message"} per file.
// vm.SourceTextModule parses and applies the early errors without linking
// or running anything (run with --experimental-vm-modules).
import { readFileSync } from 'node:fs';
import { SourceTextModule } from 'node:vm';

for (const file of process.argv.slice(2)) {
  const source = readFileSync(file, 'utf8');
  try {
    new SourceTextModule(source, { identifier: file });
    console.log(JSON.stringify({ file, ok: true }));
  } catch (error) {
    console.log(JSON.stringify({ file, ok: false, message: `${error.name}: ${error.message}` }));
  }
}
