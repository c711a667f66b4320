/** A user as the authenticator sees them. */
export interface UserInfo {
  name: string;
  uid?: string;
  groups: string[];
}

export interface TokenEntry extends UserInfo {
  token: string;
}

/** Splits one CSV line (double quotes group commas, `""` is a quote). */
function csvFields(line: string): string[] {
  const fields: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted && char === '"' && line[i + 1] === '"') current += line[++i];
    else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) [fields[fields.length], current] = [current, ''];
    else current += char;
  }
  fields.push(current);
  return fields.map((field) => field.trim());
}

/**
 * The API server's `--token-auth-file`: one `token,user,uid,"group1,group2"` per line (groups optional).
 * Bad lines are refused with their line number, so a typo never silently locks a user out.
 */
export function parseTokenFile(text: string): TokenEntry[] {
  return text
    .split(/\r?\n/)
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('#'))
    .map(({ line, number }) => {
      const [token, name, uid, groups] = csvFields(line);
      if (!token || !name) throw new Error(`token file line ${number}: expected token,user,uid[,"group1,group2"]`);
      return {
        token,
        name,
        uid: uid || undefined,
        groups: groups
          ? groups
              .split(',')
              .map((g) => g.trim())
              .filter(Boolean)
          : [],
      };
    });
}
