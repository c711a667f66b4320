import { InitialSchema1764670000000 } from './1764670000000-InitialSchema.js';
import { WarmPools1764850000000 } from './1764850000000-WarmPools.js';
import { AddReadinessChecks1796396031608 } from './1796396031608-AddReadinessChecks.js';
import { WarmPoolSizing1796406814973 } from './1796406814973-WarmPoolSizing.js';
import { BootTimes1796410000000 } from './1796410000000-BootTimes.js';
import { AdmissionQueue1796500000000 } from './1796500000000-AdmissionQueue.js';
import { EndpointsOnTheRow1796600000000 } from './1796600000000-EndpointsOnTheRow.js';

/** Every migration, oldest first. Add new ones here (`<epoch-ms>-<PascalCaseName>.ts`). */
export const migrations = [
  InitialSchema1764670000000,
  WarmPools1764850000000,
  AddReadinessChecks1796396031608,
  WarmPoolSizing1796406814973,
  BootTimes1796410000000,
  AdmissionQueue1796500000000,
  EndpointsOnTheRow1796600000000,
];
