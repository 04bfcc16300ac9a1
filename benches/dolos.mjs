// Dolos (https://dolos.ugent.be, @dodona/dolos-lib), run by
// benches/similar.rs on the same programs as `referee similar`:
// `node dolos.mjs LANGUAGE FILE...` prints each pair of files as
// "FILE<TAB>FILE<TAB>SIMILARITY", then "ms<TAB>N", the time Dolos took to
// read and compare them, measured here as referee's is measured in the
// benchmark (the program's start and module loading left out).
import { Dolos } from "@dodona/dolos-lib";

const [language, ...files] = process.argv.slice(2);
const dolos = new Dolos({ language });
const started = performance.now();
const report = await dolos.analyzePaths(files);
const took = performance.now() - started;
for (const pair of report.allPairs()) {
  console.log(`${pair.leftFile.path}\t${pair.rightFile.path}\t${pair.similarity}`);
}
console.log(`ms\t${took}`);
