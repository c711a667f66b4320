// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import { readFileSync } from 'node:fs';

/**
 * Layers, bottom to top (each project's `layer:*` tag, in its package.json): a project imports only
 * layers below its own (and its own, where noted), never above. See docs/architecture.md.
 */
const LAYERS = ['layer:base', 'layer:model', 'layer:adapter', 'layer:domain', 'layer:runtime', 'layer:app'];
const below = (layer) => LAYERS.slice(0, LAYERS.indexOf(layer));
const runtimeConstraints = [
  // contracts, config: nothing of ours.
  { sourceTag: 'layer:base', onlyDependOnLibsWithTags: ['layer:base'] },
  // curriculum, crd: the formats we read and write.
  { sourceTag: 'layer:model', onlyDependOnLibsWithTags: [...below('layer:model'), 'layer:model'] },
  // data, messaging, kube (the client): one kind of I/O each, independent of one another.
  { sourceTag: 'layer:adapter', onlyDependOnLibsWithTags: below('layer:adapter') },
  // lesson-objects: builds objects and rows; never loads the Kubernetes client.
  { sourceTag: 'layer:domain', onlyDependOnLibsWithTags: below('layer:domain'), notDependOnLibsWithTags: ['io:kubernetes'] },
  // runtime, kube-runtime: the Nest wiring of a service.
  { sourceTag: 'layer:runtime', onlyDependOnLibsWithTags: [...below('layer:runtime'), 'layer:runtime'] },
  // apps never import apps.
  { sourceTag: 'layer:app', onlyDependOnLibsWithTags: below('layer:app') },
  // The api and the healthchecker never talk to Kubernetes (the api asks the scheduler over the bus).
  { sourceTag: 'scope:api', notDependOnLibsWithTags: ['io:kubernetes'] },
  { sourceTag: 'scope:healthchecker', notDependOnLibsWithTags: ['io:kubernetes'] },
  // kube-sim, antictl: any lib, and each other.
  { sourceTag: 'layer:tool', onlyDependOnLibsWithTags: [...below('layer:app'), 'layer:tool'] },
  // The testing lib: what it starts and seeds. Only specs import it (see the override below). No tool:
  // what it needs of kube-sim is a port (libs/testing/src/cluster.port.ts) the test fills in.
  { sourceTag: 'layer:testing', onlyDependOnLibsWithTags: [...below('layer:app'), 'layer:testing'] },
  { sourceTag: 'layer:e2e', onlyDependOnLibsWithTags: [...LAYERS, 'layer:tool', 'layer:testing'] },
];
/** The testing lib builds on these projects, and their own tests use it: a test-only cycle, by design. */
const testingDeps = Object.keys(JSON.parse(readFileSync(new URL('./libs/testing/package.json', import.meta.url), 'utf8')).dependencies);
const testOnlyCycles = testingDeps.map((name) => [name, '@antidote/testing']);

/**
 * Tests may also use the testing lib and the tools (kube-sim); the layer order holds for them too.
 * The builders' tests send what they build through the real client, so they may use it. The scope rules
 * are about what an app loads when it runs: its tests run the whole platform (the scheduler and the
 * testing lib's cluster helpers on the client included), so they do not apply to tests.
 */
const testConstraints = runtimeConstraints
  .filter((rule) => !rule.sourceTag.startsWith('scope:'))
  .map((rule) => {
    if (rule.sourceTag === 'layer:domain')
      return { sourceTag: rule.sourceTag, onlyDependOnLibsWithTags: [...rule.onlyDependOnLibsWithTags, 'layer:testing', 'layer:tool'] };
    return rule.onlyDependOnLibsWithTags
      ? { ...rule, onlyDependOnLibsWithTags: [...new Set([...rule.onlyDependOnLibsWithTags, 'layer:testing', 'layer:tool'])] }
      : rule;
  });

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'reports/**',
      '.nx/**',
      '**/*.js',
      '**/*.mjs',
      '**/vitest.config.ts',
      'vitest.shared.ts',
      'vitest.unit.config.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { '@nx': nx },
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allow: [], depConstraints: runtimeConstraints }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // In-memory fakes of ports (`*.fake.ts`) are for specs only.
    files: ['**/*.ts'],
    ignores: ['**/*.spec.ts', '**/*.fake.ts', '**/test/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/*.fake.js'], message: 'Fakes are for specs only.' }] }] },
  },
  {
    // Only the client lib (and what wires or tests it) loads @kubernetes/client-node; builders use its types.
    files: ['libs/*/src/**/*.ts', 'apps/*/src/**/*.ts'],
    ignores: ['libs/kube/**', 'libs/kube-runtime/**', 'libs/testing/**', '**/*.spec.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@kubernetes/client-node',
              allowTypeImports: true,
              message: 'Only @antidote/kube loads the Kubernetes client; import its types with `import type`.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        // Integration tests run the real services an app works with (the scheduler's need the healthchecker).
        {
          enforceBuildableLibDependency: false,
          allow: ['@antidote/healthchecker', '@antidote/scheduler'],
          depConstraints: testConstraints,
          ignoredCircularDependencies: testOnlyCycles,
        },
      ],
      '@typescript-eslint/unbound-method': 'off',
      // expect.objectContaining() and friends are typed `any` by design.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
