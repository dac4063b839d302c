// vitest globalSetup: the package laid out as installed, in .installed/ (bin/lay-out.js), for
// the tests that run the command in a child process. The bin finds no sources beside it there,
// so it runs the compiled JavaScript, as an installed package does, instead of starting tsx's
// loader in every child (about 0.4 s of CPU each, a third of the suite's CPU time).
import { LAID_OUT, layOut } from '../../bin/lay-out.js';

export const INSTALLED = LAID_OUT;

export default async function setup(): Promise<void> {
  await layOut();
}
