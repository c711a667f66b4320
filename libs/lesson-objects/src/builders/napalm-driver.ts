import { LessonObjectError } from './lesson-object.error.js';

/**
 * The napalm driver named by a configuration file `<endpointName>-<driver>.<ext>`. The known endpoint
 * name is stripped first, so names containing `-` or `.` work (the original split the whole path on
 * `-` and `.` and took the second token, §9 item 11).
 */
export function napalmDriver(endpointName: string, configurationFile: string): string {
  const base = configurationFile.split('/').pop() ?? '';
  const prefix = `${endpointName}-`;
  if (!base.startsWith(prefix)) {
    throw new LessonObjectError('INVALID_NAPALM_DRIVER', `Napalm configuration file ${base} of ${endpointName} must be named ${prefix}<driver>.<ext>`);
  }
  const rest = base.slice(prefix.length);
  const dot = rest.lastIndexOf('.');
  const driver = dot > 0 ? rest.slice(0, dot) : rest;
  if (!/^[A-Za-z0-9_]+$/.test(driver)) {
    throw new LessonObjectError('INVALID_NAPALM_DRIVER', `Invalid napalm driver ${JSON.stringify(driver)} in ${base}`);
  }
  return driver;
}
