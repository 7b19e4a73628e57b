export { createApp, loadEngine } from './app.js';
export { startServer, type RunningServer } from './server.js';
export { DEFAULTS, MODES, RECORD_MODES, SOURCES, type Mode, type RecordMode, type Source, type WikitapeOptions } from './options.js';
export { DEFAULT_PROFILE, makeProfile, type WikiProfile } from './wiki/profile.js';
export type { Block, ExtLink, LogEvent, Page, ProtectedTitle, WikiModel } from './wiki/model.js';
export type { FixtureFile } from './wiki/fixtures.js';
export type { WriteEntry } from './api/session.js';
export { FAULT_NAMES, FaultSpecError, parseFault, type FaultSpec } from './faults/spec.js';
