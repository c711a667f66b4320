import { projectConfig } from '../../vitest.shared.js';

// Each test runs the built CLI as separate processes: an upper bound for a loaded machine, not a target.
export default projectConfig(import.meta.dirname, { testTimeoutMs: 180_000 });
