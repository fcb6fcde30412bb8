/**
 * Page figures (npm run bench:pages -- [--content DIR] [--throughput …]): the budgets by default
 * (scripts/bench-budgets.ts), throughput against static files with --throughput
 * (scripts/bench-throughput.ts).
 */
if (process.argv.includes('--throughput')) await import('./bench-throughput.ts');
else await import('./bench-budgets.ts');
