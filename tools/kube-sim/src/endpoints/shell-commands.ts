/** Who a simulated shell runs as and where: a pod's or service's name, image and address. */
export interface ShellIdentity {
  hostname: string;
  user: string;
  image?: string;
  address?: string;
  /** While true, the endpoint is still booting: every command but `exit` answers `BOOTING_ANSWER` (exit 1). */
  booting?: () => boolean;
}

/** What a booting endpoint's shell answers to any command. */
export const BOOTING_ANSWER = 'error: the system is still booting, please try again later\n';

export interface CommandResult {
  output: string;
  code: number;
  /** `exit`: the session ends with `code`. */
  exit?: boolean;
}

const NETWORK_IMAGE = /vqfx|vmx|vsrx|junos|crpd|ceos|arista|eos|nxos|iosxr|xrv|csr1000|vyos|frr|cumulus|network-os/i;

/** Whether the endpoint looks like a network device (its shell answers `show …` and prompts like one). */
export const isNetworkImage = (identity: ShellIdentity): boolean => NETWORK_IMAGE.test(identity.image ?? '');

/** Splits a command line into words, honouring single and double quotes and backslashes. */
export function words(line: string): string[] {
  const result: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quote) {
      if (char === quote) quote = undefined;
      else if (char === '\\' && quote === '"' && i + 1 < line.length) current += line[++i];
      else current += char;
    } else if (char === '"' || char === "'") [quote, started] = [char, true];
    else if (char === '\\' && i + 1 < line.length) [current, started] = [current + line[++i], true];
    else if (/\s/.test(char)) {
      if (started) result.push(current);
      [current, started] = ['', false];
    } else [current, started] = [current + char, true];
  }
  if (started) result.push(current);
  return result;
}

const ipAddr = (identity: ShellIdentity): string =>
  [
    '1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN',
    '    inet 127.0.0.1/8 scope host lo',
    '2: eth0@if7: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc noqueue state UP',
    `    inet ${identity.address ?? '127.0.0.2'}/16 scope global eth0`,
    '',
  ].join('\n');

type Command = (args: string[], identity: ShellIdentity, status: number) => CommandResult;

const ok = (output: string): CommandResult => ({ output, code: 0 });

const COMMANDS: Record<string, Command> = {
  echo: (args) => (args[0] === '-n' ? ok(args.slice(1).join(' ')) : ok(`${args.join(' ')}\n`)),
  hostname: (_args, identity) => ok(`${identity.hostname}\n`),
  whoami: (_args, identity) => ok(`${identity.user}\n`),
  id: (_args, identity) =>
    ok(
      identity.user === 'root'
        ? 'uid=0(root) gid=0(root) groups=0(root)\n'
        : `uid=1000(${identity.user}) gid=1000(${identity.user}) groups=1000(${identity.user})\n`,
    ),
  pwd: (_args, identity) => ok(identity.user === 'root' ? '/\n' : `/home/${identity.user}\n`),
  uname: (args, identity) =>
    ok(
      `${args.includes('-a') ? `Linux ${identity.hostname} 6.1.0-kube-sim #1 SMP x86_64 GNU/Linux` : args.includes('-n') ? identity.hostname : args.includes('-r') ? '6.1.0-kube-sim' : args.includes('-m') ? 'x86_64' : 'Linux'}\n`,
    ),
  date: () => ok(`${new Date().toUTCString()}\n`),
  true: () => ok(''),
  false: () => ({ output: '', code: 1 }),
  ip: (args, identity) =>
    ['a', 'addr', 'address'].includes(args[0] ?? '')
      ? ok(ipAddr(identity))
      : args[0] === 'route' || args[0] === 'r'
        ? ok('default via 127.0.0.1 dev eth0\n')
        : { output: 'Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }\n', code: 1 },
  exit: (args, _identity, status) => ({ output: '', code: args[0] !== undefined && /^\d+$/.test(args[0]) ? Number(args[0]) % 256 : status, exit: true }),
  show: (args, identity) =>
    args[0] === 'version'
      ? ok(`Hostname: ${identity.hostname}\nModel: kube-sim\nImage: ${identity.image ?? 'unknown'}\n`)
      : args[0] === 'interfaces'
        ? ok(
            `Interface               Admin Link Proto    Local\nlo0                     up    up   inet     127.0.0.1/8\nem0                     up    up   inet     ${identity.address ?? '127.0.0.2'}/16\n`,
          )
        : { output: `syntax error, expecting <command>: ${args[0] ?? ''}\n`, code: 1 },
};
COMMANDS.ifconfig = (_args, identity) => ok(ipAddr(identity));

/** Runs one simple command (already split into words); `$?`, `$HOSTNAME` and `$USER` are expanded. */
export function runWords(argv: string[], identity: ShellIdentity, status = 0): CommandResult {
  const expanded = argv.map((word) => word.replaceAll('$?', String(status)).replaceAll('$HOSTNAME', identity.hostname).replaceAll('$USER', identity.user));
  const [name, ...args] = expanded;
  if (name === undefined) return { output: '', code: status };
  if (name !== 'exit' && identity.booting?.()) return { output: BOOTING_ANSWER, code: 1 };
  if ((name === 'sh' || name === 'bash' || name === '/bin/sh' || name === '/bin/bash') && args[0] === '-c') return runLine(args[1] ?? '', identity, status);
  const command = COMMANDS[name] ?? (name.startsWith('/') ? COMMANDS[name.split('/').pop()!] : undefined);
  if (!command || (name === 'show' && !isNetworkImage(identity))) return { output: `${name}: command not found\n`, code: 127 };
  return command(args, identity, status);
}

/** Runs a command line: commands separated by `;`, `&&` and `||`. */
export function runLine(line: string, identity: ShellIdentity, status = 0): CommandResult {
  let output = '';
  let code = status;
  let skip = false;
  for (const part of line.split(/(;|&&|\|\|)/)) {
    if (part === ';') skip = false;
    else if (part === '&&') skip = code !== 0;
    else if (part === '||') skip = code === 0;
    else if (!skip && part.trim()) {
      const result = runWords(words(part), identity, code);
      output += result.output;
      code = result.code;
      if (result.exit) return { output, code, exit: true };
    }
  }
  return { output, code };
}
