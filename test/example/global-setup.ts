// The vitest globalSetup of the README, as shown there: one wikitape for the whole run.
import type { TestProject } from 'vitest/node';
import { startServer } from 'wikitape';

declare module 'vitest' {
  export interface ProvidedContext {
    wikiApi: string;
  }
}

export default async function setup(project: TestProject) {
  const wiki = await startServer({ cassettes: 'cassettes' }); // an unrecorded question: the wikitape-miss error
  project.provide('wikiApi', wiki.url);
  return () => wiki.close();
}
