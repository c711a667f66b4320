// @ts-check
import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Which projects may import which: apps never import apps; runtime code never imports testing. */
const runtimeConstraints = [
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:lib', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:tool', onlyDependOnLibsWithTags: ['type:lib'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib', 'type:tool', 'type:testing'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:lib', 'type:testing', 'type:tool'] },
];
/** The testing lib builds on these libs, and their own tests use it: a test-only cycle, by design. */
const testOnlyCycles = ['config', 'contracts', 'curriculum', 'data', 'kube', 'messaging', 'runtime', 'kube-sim'].map((name) => [`@antidote/${name}`, '@antidote/testing']);

/** Tests may also use the testing lib and kube-sim. */
const testConstraints = runtimeConstraints.map((rule) => ({
  ...rule,
  onlyDependOnLibsWithTags: [...new Set([...rule.onlyDependOnLibsWithTags, 'type:testing', 'type:tool'])],
}));

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'reports/**', '.nx/**', '**/*.js', '**/*.mjs', '**/vitest.config.ts', 'vitest.shared.ts'] },
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
    files: ['**/*.spec.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        // Integration tests run the real services an app works with (the scheduler's need the healthchecker).
        { enforceBuildableLibDependency: false, allow: ['@antidote/healthchecker', '@antidote/scheduler'], depConstraints: testConstraints, ignoredCircularDependencies: testOnlyCycles },
      ],
      '@typescript-eslint/unbound-method': 'off',
      // expect.objectContaining() and friends are typed `any` by design.
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
