// `kube-sim nodes …`: simulated nodes for a real control plane; anything else: the API simulator.
if (process.argv[2] === 'nodes') await import('./nodes/cli.js');
else await import('./sim-cli.js');

export {};
