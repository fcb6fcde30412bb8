// Preloaded into every test process (.taprc): a test run from its TypeScript source gets tsx; one
// bundled into .test-build/ (what `npm test` runs) is plain JavaScript and loads without any loader.
if (/\.tsx?$/.test(process.argv[1] ?? '')) await import('tsx');
