// Prints, for each skill directory named on the command line, what the
// Agent Skills reference validator (skills-ref) says about it: one JSON
// line {"dir", "errors"} per directory, errors empty when it is valid.
import { validate } from 'skills-ref';

for (const dir of process.argv.slice(2)) {
  console.log(JSON.stringify({ dir, errors: await validate(dir) }));
}
