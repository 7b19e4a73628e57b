// npm run lint: typescript-eslint's recommended rules over the sources, tests, bench and scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test/artifacts/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly', URLSearchParams: 'readonly',
        fetch: 'readonly', AbortSignal: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setImmediate: 'readonly',
        setInterval: 'readonly', clearInterval: 'readonly', performance: 'readonly', TextDecoder: 'readonly', TextEncoder: 'readonly',
        structuredClone: 'readonly', queueMicrotask: 'readonly', AbortController: 'readonly', Response: 'readonly', Headers: 'readonly',
        FormData: 'readonly', Blob: 'readonly',
      },
    },
    rules: {
      // Unused names are a compile error already (tsconfig noUnusedLocals/Parameters); `_x` marks a deliberate one.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // PHP's parsing reads control characters (NUL, \x1f, \v …) as such: the patterns that match them are the point.
      'no-control-regex': 'off',
    },
  },
  {
    // Tests read the live wiki's answers as they come (untyped JSON).
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
