/**
 * Generates a synthetic content tree for import and search benchmarks:
 *
 *   npx tsx scripts/generate-corpus.ts --count 10000 --out /tmp/corpus-10k [--seed 42] [--force]
 *
 * The tree uses the authoring format of content/ (server/content/schemas.ts) and imports without
 * problems (`npx tsx scripts/import.ts --check <out>`). --count is the number of topics, KB
 * articles, collections and topic sets together (about 70 / 25 / 5 %); the structural files
 * (products, contexts, pages, site.yaml, header.yaml, resource cards) come on top. The output
 * depends only on --count and --seed. --out must be missing or empty unless --force is given,
 * which deletes it first.
 */
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { homedir } from 'node:os';

// ---------------------------------------------------------------------------------------------
// Command line

interface Options { count: number; out: string; seed: number; force: boolean }

const USAGE = 'usage: npx tsx scripts/generate-corpus.ts --count <n> --out <dir> [--seed <n>] [--force]';
const MIN_COUNT = 20;

function parseArgs(argv: string[]): Options {
  let count: number | undefined;
  let out: string | undefined;
  let seed = 42;
  let force = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined || v.startsWith('--')) fail(`${flag} needs a value\n${USAGE}`);
      return v;
    };
    switch (flag) {
      case '--count': count = Number(value()); break;
      case '--out': out = value(); break;
      case '--seed': seed = Number(value()); break;
      case '--force': force = true; break;
      case '--help': case '-h': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  if (count === undefined || out === undefined) fail(USAGE);
  if (!Number.isInteger(count) || count < MIN_COUNT) fail(`--count must be an integer of at least ${MIN_COUNT}`);
  if (!Number.isInteger(seed)) fail('--seed must be an integer');
  return { count, out: resolve(out), seed: seed >>> 0, force };
}

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A 32-bit seed for document `n` of stream `salt`, so each body is independent of write order. */
function mix(seed: number, salt: number, n: number): number {
  let h = (seed ^ Math.imul(salt, 0x9e3779b1) ^ Math.imul(n + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

class Rng {
  private readonly next: () => number;
  constructor(seed: number) { this.next = mulberry32(seed); }
  float(): number { return this.next(); }
  /** Integer in [min, max]. */
  int(min: number, max: number): number { return min + Math.floor(this.next() * (max - min + 1)); }
  chance(p: number): boolean { return this.next() < p; }
  pick<T>(list: readonly T[]): T { return list[Math.floor(this.next() * list.length)] as T; }
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.next() * total;
    for (const [item, w] of items) if ((r -= w) < 0) return item;
    return (items[items.length - 1] as readonly [T, number])[0];
  }
  shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [list[i], list[j]] = [list[j] as T, list[i] as T];
    }
    return list;
  }
  sample<T>(list: readonly T[], k: number): T[] { return this.shuffle([...list]).slice(0, Math.min(k, list.length)); }
}

// ---------------------------------------------------------------------------------------------
// Vocabulary

interface Noun { s: string; p: string }
interface Verb { base: string; ing: string; ed: string }

/** "singular" (regular plural), "singular|plural", or "mass noun|=" (no plural). */
function nouns(list: string): Noun[] {
  return list.split(',').map((w) => w.trim()).filter(Boolean).map((w) => {
    const [s, p] = w.split('|') as [string, string | undefined];
    if (p === '=') return { s, p: s };
    return { s, p: p ?? plural(s) };
  });
}

function plural(s: string): string {
  if (/[^aeiou]y$/.test(s)) return `${s.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/.test(s)) return `${s}es`;
  return `${s}s`;
}

function verbs(list: string): Verb[] {
  return list.split(',').map((w) => {
    const [base, ing, ed] = w.trim().split('/') as [string, string, string];
    return { base, ing, ed };
  });
}

interface FamilyDef {
  id: string; name: string; abbr: string; blurb: string; container: string; weight: number;
  nouns: Noun[]; settings: string[]; roles: string[]; menus: string[];
}

const FAMILIES: FamilyDef[] = [
  {
    id: 'tracklight', name: 'Tracklight', abbr: 'TRK', weight: 1.4, container: 'project',
    blurb: 'Plan, track and release software with boards, backlogs and sprints.',
    nouns: nouns('issue, board, sprint, backlog|backlogs, epic, workflow, saved filter, dashboard, custom field, fix version, component, issue type, screen scheme, TQL query|TQL queries, issue link, work log, notification scheme, permission scheme, issue security level, board swimlane'),
    settings: ['Attachment size', 'Issue key format', 'Maximum board issues', 'Default assignee', 'Time tracking format', 'TQL query timeout', 'Subtask limit', 'Board refresh interval'],
    roles: ['Project administrator', 'Board administrator', 'Site administrator'],
    menus: ['Project settings', 'Issues', 'Boards', 'Workflows', 'Fields'],
  },
  {
    id: 'pagewell', name: 'Pagewell', abbr: 'PGW', weight: 1.3, container: 'space',
    blurb: 'Write, organise and share knowledge in pages and spaces.',
    nouns: nouns('page, space, page template, blueprint, macro|macros, page tree, inline comment, attachment, label, space permission, PDF export, page version, blog post, page restriction, space theme, content property|content properties, page draft, space shortcut'),
    settings: ['Maximum attachment size', 'Collaborative editing mode', 'Page history retention', 'Default space theme', 'PDF export page limit', 'Draft auto-save interval', 'Anonymous access'],
    roles: ['Space administrator', 'Site administrator', 'Page owner'],
    menus: ['Space settings', 'Content tools', 'Permissions', 'Look and feel', 'Templates'],
  },
  {
    id: 'codebarn', name: 'Codebarn', abbr: 'CDB', weight: 1.2, container: 'repository|repositories',
    blurb: 'Host, review and merge code in Git repositories.',
    nouns: nouns('repository|repositories, pull request, branch|branches, branch permission, merge check, SSH key, HTTP access token, repository mirror, fork, commit, tag, code owner rule, Git LFS object, default reviewer, merge strategy|merge strategies, commit hook, branch model'),
    settings: ['Maximum diff size', 'Default merge strategy', 'Minimum approvals', 'Git LFS quota', 'SSH base URL', 'Clone depth limit', 'Push size limit'],
    roles: ['Repository administrator', 'Project administrator', 'Workspace administrator'],
    menus: ['Repository settings', 'Branch permissions', 'Merge checks', 'Access keys', 'Hooks'],
  },
  {
    id: 'relaybot', name: 'Relaybot', abbr: 'RLB', weight: 1.1, container: 'build plan',
    blurb: 'Build, test and deploy with pipelines that run on managed or remote agents.',
    nouns: nouns('pipeline, build plan, build agent, artifact, deployment environment, plan variable, stage, job, build trigger, build cache|build caches, test report, deployment project, remote runner, agent capability|agent capabilities, build log, pipeline template'),
    settings: ['Concurrent builds', 'Artifact retention', 'Build timeout', 'Agent heartbeat interval', 'Log size limit', 'Cache expiry', 'Queue timeout'],
    roles: ['Plan administrator', 'Build administrator', 'Deployment manager'],
    menus: ['Plan configuration', 'Agents', 'Artifacts', 'Variables', 'Deployments'],
  },
  {
    id: 'helmdesk', name: 'Helmdesk', abbr: 'HLD', weight: 1.2, container: 'service project',
    blurb: 'Run a service desk with queues, SLAs and a customer portal.',
    nouns: nouns('request type, queue, SLA goal, customer portal, knowledge article, asset object, approval, email channel, customer organization, agent, canned response, satisfaction survey, request form, portal announcement, SLA calendar, request participant'),
    settings: ['SLA pause conditions', 'Email request limit', 'Portal session timeout', 'Approval threshold', 'Auto-close period', 'Customer permissions', 'Queue refresh interval'],
    roles: ['Service project administrator', 'Agent', 'Site administrator'],
    menus: ['Project settings', 'Request types', 'SLAs', 'Portal settings', 'Email requests'],
  },
  {
    id: 'pagerline', name: 'Pagerline', abbr: 'PGL', weight: 1.0, container: 'team',
    blurb: 'Route alerts to the right responder and run incidents to resolution.',
    nouns: nouns('alert, escalation policy|escalation policies, on-call schedule, alert integration, heartbeat, notification rule, incident, routing rule, service, maintenance window, alert policy|alert policies, status page, schedule override, postmortem, responder'),
    settings: ['Alert deduplication window', 'Escalation timeout', 'Heartbeat interval', 'Notification delay', 'Auto-resolve period', 'SMS quiet hours', 'Alert history retention'],
    roles: ['Team administrator', 'On-call responder', 'Organization owner'],
    menus: ['Team settings', 'Integrations', 'Escalations', 'Schedules', 'Notifications'],
  },
  {
    id: 'plotline', name: 'Plotline', abbr: 'PLT', weight: 0.9, container: 'plan',
    blurb: 'Plan across teams with roadmaps, scenarios and capacity.',
    nouns: nouns('plan, scenario, team capacity|team capacities, roadmap, dependency|dependencies, release, program, initiative, capacity report, iteration, saved view, estimate, issue source, cross-team goal, timeline marker'),
    settings: ['Scheduling mode', 'Default iteration length', 'Capacity unit', 'Plan issue limit', 'Dependency warning threshold', 'Roll-up behaviour', 'Hierarchy levels'],
    roles: ['Plan owner', 'Portfolio administrator', 'Team lead'],
    menus: ['Plan settings', 'Teams', 'Releases', 'Scenarios', 'Hierarchy configuration'],
  },
  {
    id: 'keyward', name: 'Keyward', abbr: 'KYW', weight: 1.0, container: 'organization',
    blurb: 'Manage identities, single sign-on and access policies for every product.',
    nouns: nouns('SAML connection, user directory|user directories, provisioning rule, group, access policy|access policies, API token, authentication policy|authentication policies, LDAP connector, audit event, session policy|session policies, verification method, managed account, domain claim, IP allowlist, OAuth client'),
    settings: ['Session duration', 'Idle timeout', 'Password expiry', 'Token lifetime', 'SCIM sync interval', 'Allowed IP ranges', 'Step-up authentication'],
    roles: ['Organization administrator', 'User access administrator', 'Security auditor'],
    menus: ['Security', 'Directory', 'Identity providers', 'Authentication policies', 'Audit log'],
  },
  {
    id: 'ledgerly', name: 'Ledgerly', abbr: 'LDG', weight: 0.8, container: 'company|companies',
    blurb: 'Track spend, approve invoices and close the books faster.',
    nouns: nouns('invoice, expense report, approval flow, cost centre, budget, payment run, vendor, tax rule, ledger account, exchange rate, purchase order, bank reconciliation, bank feed, journal entry|journal entries, spend limit'),
    settings: ['Approval limit', 'Invoice numbering', 'Default currency', 'Payment batch size', 'Reconciliation tolerance', 'Fiscal year start', 'Receipt retention'],
    roles: ['Finance administrator', 'Approver', 'Accountant'],
    menus: ['Company settings', 'Approvals', 'Accounting', 'Payments', 'Integrations'],
  },
  {
    id: 'shipyard', name: 'Shipyard', abbr: 'SHY', weight: 0.9, container: 'environment',
    blurb: 'Build, deploy and scale container workloads on managed clusters.',
    nouns: nouns('cluster, deployment, container image, image registry|image registries, secret, rollout, health check, namespace, node pool, ingress rule, service account, resource quota, config map, autoscaling policy|autoscaling policies, deployment hook'),
    settings: ['Rollout strategy', 'Readiness timeout', 'Maximum replicas', 'Image pull policy', 'CPU request', 'Memory limit', 'Secret rotation period'],
    roles: ['Environment administrator', 'Release manager', 'Platform owner'],
    menus: ['Environment settings', 'Workloads', 'Networking', 'Registries', 'Access'],
  },
  {
    id: 'metricbay', name: 'Metricbay', abbr: 'MTB', weight: 0.9, container: 'workspace',
    blurb: 'Collect metrics, logs and traces and alert on what matters.',
    nouns: nouns('metric, dashboard, alert rule, log query|log queries, trace, retention policy|retention policies, data source, collector, service level objective, anomaly monitor, log pipeline, dashboard panel, metric tag, sampling rule, saved search|saved searches'),
    settings: ['Metric retention', 'Scrape interval', 'Query timeout', 'Log ingestion limit', 'Trace sampling rate', 'Alert evaluation interval', 'Cardinality limit'],
    roles: ['Workspace administrator', 'Editor', 'Viewer'],
    menus: ['Workspace settings', 'Data sources', 'Alerting', 'Pipelines', 'Usage'],
  },
  {
    id: 'draftroom', name: 'Draftroom', abbr: 'DFR', weight: 0.8, container: 'team',
    blurb: 'Design, prototype and hand off interfaces together.',
    nouns: nouns('design file, component library|component libraries, prototype, comment thread, version history|=, shared link, style guide, frame, export preset, design token, plugin, handoff spec, whiteboard, image asset, variant'),
    settings: ['Library publishing', 'Link sharing', 'Export resolution', 'Autosave interval', 'Guest access', 'Version retention', 'Plugin approval'],
    roles: ['Team administrator', 'Editor', 'File owner'],
    menus: ['Team settings', 'Libraries', 'Sharing', 'Plugins', 'Members'],
  },
];

const GENERIC_NOUNS = nouns('webhook, audit log, email notification, app, user account, user group, global permission, API rate limit, data export, import job, integration, notification setting, access request, usage report, scheduled job');
const DC_NOUNS = nouns('cluster node, shared home directory|shared home directories, load balancer, database connection pool, search index|search indexes, JVM heap|JVM heaps, log file, reverse proxy|reverse proxies, backup, rolling upgrade, thread dump, JMX metric, mail queue, license key, application cache|application caches');
const CLOUD_NOUNS = nouns('site, sandbox|sandboxes, release track, data residency|=, connected app, admin insight, IP allowlist rule, product access, mobile app, organization policy|organization policies');

const VERBS = verbs(
  'create/creating/created, configure/configuring/configured, manage/managing/managed, delete/deleting/deleted, ' +
  'archive/archiving/archived, restore/restoring/restored, export/exporting/exported, import/importing/imported, ' +
  'migrate/migrating/migrated, troubleshoot/troubleshooting/troubleshot, monitor/monitoring/monitored, automate/automating/automated, ' +
  'customize/customizing/customized, share/sharing/shared, secure/securing/secured, audit/auditing/audited, rename/renaming/renamed, ' +
  'move/moving/moved, copy/copying/copied, schedule/scheduling/scheduled, review/reviewing/reviewed, update/updating/updated, ' +
  'edit/editing/edited, set up/setting up/set up, clean up/cleaning up/cleaned up, limit/limiting/limited, back up/backing up/backed up, ' +
  'sync/syncing/synced, validate/validating/validated, organize/organizing/organized, track/tracking/tracked, approve/approving/approved',
);

const QUALIFIERS = [
  'in bulk', 'with the REST API', 'for {a_c}', 'across {cp}', 'from the command line', 'with automation rules', 'for compliance audits',
  'at scale', 'for external users', 'using templates', 'from a CSV file', 'as JSON', 'for new teams', 'step by step', 'on mobile',
  'in {Pn}', 'for large teams', 'during a migration', 'without losing history', 'with default settings', 'for guest users',
  'on a schedule', 'for multiple {cp}', 'with webhooks', 'when a user leaves', 'for read-only users', 'by owner', 'with labels',
  'from another tool', 'for a single team', 'with granular permissions', 'before a release', 'after a reorganization',
];
const DC_QUALIFIERS = ['in a cluster', 'without downtime', 'on Linux', 'on Windows', 'behind a reverse proxy', 'with PostgreSQL', 'for high availability', 'after an upgrade', 'on a single node', 'with an external database'];
const CLOUD_QUALIFIERS = ['across sites', 'in a sandbox', 'with data residency', 'on the Enterprise plan', 'on the Standard plan', 'for your organization', 'with admin insights'];

const AREA_ASPECTS = ['basics', 'administration', 'and permissions', 'troubleshooting', 'reference', 'automation', 'integrations', 'at scale', 'for administrators', 'for teams', 'configuration', 'best practices', 'security', 'reporting', 'migration'];
const ERROR_MESSAGES = [
  'Request Entity Too Large', 'Too Many Requests', 'Connection timed out', 'Unable to acquire lock', 'Permission denied',
  'Index is out of date', 'Unexpected end of JSON input', 'Service Unavailable', 'Invalid signature', 'Certificate has expired',
  'The requested resource was not found', 'Duplicate key value violates unique constraint', 'Read timed out', 'No space left on device',
  'Maximum number of items reached', 'Session expired', 'Invalid token', 'Gateway Timeout', 'Conflict detected', 'Quota exceeded',
];
const STATES = ['Pending', 'Starting', 'Queued', 'Syncing', 'In progress', 'Processing', 'Waiting for approval', 'Scheduled', 'Indexing', 'Retrying'];
const EVENTS = [
  'an upgrade', 'a site migration', 'renaming {a_c}', 'changing the base URL', 'enabling SSO', 'a database restore', 'a full reindex',
  'moving to a new server', 'rotating the API token', 'a daylight saving time change', 'a CSV import', 'changing the time zone',
  'deactivating a user', 'a license renewal', 'restoring from backup', 'updating the proxy settings', 'merging two {cp}',
];
const KB_PAST = ['delivered', 'synced', 'saved', 'updated', 'shown', 'indexed', 'imported', 'exported', 'created', 'restored', 'applied', 'sent', 'refreshed', 'deleted'];
const BUTTONS = ['Save', 'Create', 'Apply', 'Update', 'Confirm', 'Done', 'Save changes', 'Next', 'Publish'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];
const HTTP = ['HTTP 400', 'HTTP 401', 'HTTP 403', 'HTTP 404', 'HTTP 409', 'HTTP 413', 'HTTP 429', 'HTTP 500', 'HTTP 502', 'HTTP 503'];
const EXCEPTIONS = ['java.net.SocketTimeoutException', 'java.lang.OutOfMemoryError', 'org.postgresql.util.PSQLException', 'javax.net.ssl.SSLHandshakeException', 'java.io.IOException', 'java.util.concurrent.TimeoutException'];
const TEAMS = ['Payments', 'Platform', 'Mobile', 'Growth', 'Support', 'Data', 'Security', 'Infrastructure', 'Marketing', 'Billing'];
const LOG_LEVELS = ['INFO', 'WARN', 'ERROR'];

// ---------------------------------------------------------------------------------------------
// The plan: products, contexts and every document's front matter

type Deployment = 'Cloud' | 'Data Center';

interface Family extends FamilyDef {
  containerNoun: Noun;
  dcVersions: string[];
  kbSlugs: Set<string>;
  kb: KbPlan[];
}

interface Ctx {
  id: string;           // product id, also the context of its pages
  family: Family;
  deployment: Deployment;
  versions: string[];   // Data Center only
  nouns: Noun[];        // family + generic + deployment nouns
  slugs: Set<string>;   // topics, topic sets and collections share the docs path
  topics: TopicPlan[];
  collections: CollectionPlan[];
  topicSets: TopicSetPlan[];
  weight: number;
}

interface TopicPlan {
  n: number; id: string; slug: string; title: string; shortTitle?: string; ctx: Ctx; verb: Verb; noun: Noun; qualifier: string;
  versions?: string[]; lastPublished: string; published: boolean; collection: CollectionPlan;
}
interface CollectionPlan {
  id: string; slug: string; title: string; ctx: Ctx; theme: Noun[]; aspect: string; lastPublished: string;
  children: string[]; topics: TopicPlan[]; guide: boolean; subhead: string;
}
interface TopicSetPlan { n: number; id: string; slug: string; title: string; ctx: Ctx; topics: TopicPlan[]; lastPublished: string; verb: Verb; noun: Noun }
interface KbPlan {
  n: number; id: string; slug: string; title: string; family: Family; platform: string; lastPublished: string;
  noun: Noun; verb: Verb; error: string; code: string; event: string; state: string;
  version: string; upgrade: boolean;   // the Data Center version it applies to; whether an upgrade to it is the trigger
}

const RESERVED_SLUGS = new Set(['docs', 'landing', 'kb', 'kb-home', 'resources']);
const DATE_FROM = Date.UTC(2023, 0, 1);
const DATE_TO = Date.UTC(2026, 11, 31, 23, 0);

function isoDate(rng: Rng): string {
  const minutes = Math.floor((DATE_FROM + rng.float() * (DATE_TO - DATE_FROM)) / 60000);
  return new Date(minutes * 60000).toISOString().replace('.000Z', 'Z');
}

function slugify(title: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  if (slug.length <= 80) return slug;
  return slug.slice(0, 80).replace(/-[^-]*$/, '');
}

function cap(s: string): string { return s.charAt(0).toUpperCase() + s.slice(1); }

/** Fills {c}, {cp}, {Pn} in a qualifier or event. */
function place(text: string, fam: FamilyDef & { containerNoun: Noun }): string {
  return text.replace(/\{(a_c|cp|Pn)\}/g, (_, k: string) => (k === 'a_c' ? an(fam.containerNoun.s) : k === 'cp' ? fam.containerNoun.p : fam.name));
}

/** "a" or "an" before a noun phrase, by sound: an SSH key, a user group, an issue. */
function an(phrase: string): string {
  const initialism = /^[A-Z]{2,}/.test(phrase);
  const vowel = initialism ? /^[AEFHILMNORSX]/.test(phrase) : /^[aeiou]/i.test(phrase) && !/^u(s|n[io])/i.test(phrase);
  return `${vowel ? 'an' : 'a'} ${phrase}`;
}

function makeFamilies(rng: Rng): Family[] {
  return FAMILIES.map((def) => {
    const [cs, cp] = def.container.split('|') as [string, string | undefined];
    let major = rng.int(7, 10);
    let minor = rng.int(0, 8);
    const dcVersions: string[] = [];
    for (let i = 0, n = rng.int(3, 4); i < n; i++) {
      dcVersions.push(`${major}.${minor}`);
      if (rng.chance(0.45)) { major += 1; minor = rng.int(0, 3); } else minor += rng.int(1, 4);
    }
    return { ...def, containerNoun: { s: cs, p: cp ?? plural(cs) }, dcVersions, kbSlugs: new Set(), kb: [] };
  });
}

function topicTitle(rng: Rng, ctx: Ctx, theme: Noun[]): { title: string; shortTitle?: string; verb: Verb; noun: Noun; qualifier: string } {
  const fam = ctx.family;
  const noun = theme.length > 0 && rng.chance(0.75) ? rng.pick(theme) : rng.pick(ctx.nouns);
  const verb = rng.pick(VERBS);
  const quals = ctx.deployment === 'Cloud' ? [...QUALIFIERS, ...CLOUD_QUALIFIERS] : [...QUALIFIERS, ...DC_QUALIFIERS, ...DC_QUALIFIERS];
  const qualifier = place(rng.pick(quals), fam);
  const other = rng.pick(ctx.nouns);
  const pattern = rng.weighted<number>([[0, 52], [1, 8], [2, 5], [3, 5], [4, 5], [5, 5], [6, 5], [7, 5], [8, 5], [9, 5]]);
  let title: string;
  switch (pattern) {
    case 0: title = `${cap(verb.base)} ${noun.p} ${qualifier}`; break;
    case 1: title = `${cap(verb.base)} ${noun.p} and ${other.p}`; break;
    case 2: title = `About ${noun.p} ${qualifier}`; break;
    case 3: title = `${cap(noun.s)} settings reference for ${verb.ing}`; break;
    case 4: title = `Understand ${noun.s} limits ${qualifier}`; break;
    case 5: title = `Best practices for ${verb.ing} ${noun.p}`; break;
    case 6: title = `Troubleshoot ${noun.p} ${qualifier}`; break;
    case 7: title = `What happens when you ${verb.base} ${noun.p}`; break;
    case 8: title = `How ${noun.p} work with ${other.p}`; break;
    default: title = `${cap(verb.base)} ${noun.p} for ${rng.pick(TEAMS).toLowerCase()} teams`; break;
  }
  const result: { title: string; shortTitle?: string; verb: Verb; noun: Noun; qualifier: string } = { title, verb, noun, qualifier };
  if (pattern === 0 && rng.chance(0.15)) result.shortTitle = `${cap(verb.base)} ${noun.p}`;
  return result;
}

/** Draws titles until the slug is free in `slugs`, then falls back to a numbered slug. */
function uniqueTitle<T extends { title: string }>(slugs: Set<string>, draw: () => T): T & { slug: string } {
  let last: T | undefined;
  for (let attempt = 0; attempt < 25; attempt++) {
    const t = draw();
    const slug = slugify(t.title);
    last = t;
    if (slug && !slugs.has(slug) && !RESERVED_SLUGS.has(slug)) {
      slugs.add(slug);
      return { ...t, slug };
    }
  }
  const base = slugify((last as T).title).slice(0, 72);
  for (let i = 2; ; i++) {
    const slug = `${base}-${i}`;
    if (!slugs.has(slug)) {
      slugs.add(slug);
      return { ...(last as T), title: `${(last as T).title} (part ${i})`, slug };
    }
  }
}

/** Splits `total` in proportion to `weights` (largest remainder). */
function apportion(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const raw = weights.map((w) => (total * w) / sum);
  const out = raw.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = raw.map((r, i) => [r - Math.floor(r), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) {
    const i = (order[k] as readonly [number, number])[1];
    out[i] = (out[i] ?? 0) + 1;
  }
  return out;
}

/** Sizes of collections for `t` topics: 10-40 each where t allows it. */
function collectionSizes(rng: Rng, t: number): number[] {
  if (t === 0) return [];
  if (t < 10) return [t];
  const lo = Math.ceil(t / 40);
  const hi = Math.max(lo, Math.floor(t / 10));
  let k = Math.min(hi, Math.max(lo, Math.round(t / 25)));
  const sizes: number[] = [];
  let left = t;
  while (k > 0) {
    const min = Math.max(10, left - 40 * (k - 1));
    const max = Math.min(40, left - 10 * (k - 1));
    const size = k === 1 ? left : rng.int(min, Math.max(min, max));
    sizes.push(size);
    left -= size;
    k -= 1;
  }
  return sizes;
}

interface Plan {
  families: Family[];
  contexts: Ctx[];
  topics: TopicPlan[];
  collections: CollectionPlan[];
  topicSets: TopicSetPlan[];
  kb: KbPlan[];
}

function makePlan(count: number, seed: number): Plan {
  const rng = new Rng(mix(seed, 1, 0));
  const families = makeFamilies(rng);
  const contexts: Ctx[] = [];
  for (const family of families) {
    for (const deployment of ['Cloud', 'Data Center'] as const) {
      contexts.push({
        id: `${family.id}-${deployment === 'Cloud' ? 'cloud' : 'data-center'}`, family, deployment,
        versions: deployment === 'Cloud' ? [] : family.dcVersions,
        nouns: [...family.nouns, ...GENERIC_NOUNS, ...(deployment === 'Cloud' ? CLOUD_NOUNS : DC_NOUNS)],
        slugs: new Set(), topics: [], collections: [], topicSets: [],
        weight: family.weight * (deployment === 'Cloud' ? 1.25 : 0.85) * (0.7 + rng.float() * 0.6),
      });
    }
  }

  // Counts: ~70 % topics, ~25 % KB, the rest collections (as many as the topics need) and topic sets.
  const nTopics = Math.round(count * 0.7);
  let nKb = Math.round(count * 0.25);
  const active = rng.shuffle([...contexts]).slice(0, Math.min(contexts.length, Math.max(1, Math.floor(nTopics / 10))));
  const base = Math.min(10, Math.floor(nTopics / active.length));
  const extra = apportion(nTopics - base * active.length, active.map((c) => c.weight));
  const perContext = new Map(active.map((c, i) => [c, base + (extra[i] ?? 0)]));

  const topics: TopicPlan[] = [];
  const collections: CollectionPlan[] = [];
  for (const ctx of contexts) {
    const t = perContext.get(ctx) ?? 0;
    for (const size of collectionSizes(rng, t)) {
      const theme = rng.sample(ctx.family.nouns.concat(rng.chance(0.3) ? ctx.nouns : []), rng.int(1, 2));
      const col = uniqueTitle(ctx.slugs, () => {
        const aspect = rng.pick(AREA_ASPECTS);
        const main = rng.pick(theme);
        const title = theme.length > 1 && rng.chance(0.4)
          ? `${cap((theme[0] as Noun).p)} and ${(theme[1] as Noun).p}`
          : `${cap(main.p)} ${aspect}`;
        return { title, aspect };
      });
      const collection: CollectionPlan = {
        id: `${ctx.id}-${col.slug}`, slug: col.slug, title: col.title, ctx, theme, aspect: col.aspect,
        lastPublished: isoDate(rng), children: [], topics: [], guide: false,
        subhead: `${cap(rng.pick(VERBS).base)} and ${rng.pick(VERBS).base} ${(theme[0] as Noun).p} in ${ctx.family.name} ${ctx.deployment}.`,
      };
      for (let i = 0; i < size; i++) {
        const tt = uniqueTitle(ctx.slugs, () => topicTitle(rng, ctx, theme));
        const topic: TopicPlan = {
          n: topics.length, id: `${ctx.id}-${tt.slug}`, slug: tt.slug, title: tt.title, ctx, verb: tt.verb, noun: tt.noun,
          qualifier: tt.qualifier, lastPublished: isoDate(rng), published: !rng.chance(0.01), collection,
        };
        if (tt.shortTitle) topic.shortTitle = tt.shortTitle;
        if (ctx.versions.length > 1 && rng.chance(0.3)) {
          const cut = rng.int(1, ctx.versions.length - 1);
          topic.versions = rng.chance(0.6) ? ctx.versions.slice(cut) : ctx.versions.slice(0, cut);
        }
        topics.push(topic);
        collection.topics.push(topic);
        collection.children.push(topic.id);
        ctx.topics.push(topic);
      }
      collections.push(collection);
      ctx.collections.push(collection);
    }
  }

  // What is left goes to guide collections of 2-4 topic sets each; a remainder too small for a guide
  // becomes topic sets listed in an ordinary collection. KB articles give way for tiny counts.
  let rest = count - nTopics - nKb - collections.length;
  if (rest < 0) { nKb += rest; rest = 0; }
  const topicSets: TopicSetPlan[] = [];
  const withTopics = contexts.filter((c) => c.topics.length >= 2);
  const ctxWeights = withTopics.map((c) => [c, c.topics.length] as const);
  const newTopicSet = (ctx: Ctx): TopicSetPlan => {
    const ts = uniqueTitle(ctx.slugs, () => {
      const verb = rng.pick(VERBS);
      const noun = rng.chance(0.7) ? rng.pick(ctx.family.nouns) : rng.pick(ctx.nouns);
      const title = rng.pick([`${cap(verb.base)} your first ${noun.s}`, `${cap(verb.base)} your ${noun.p}`, `Plan your ${noun.p}`, `${cap(verb.base)} ${noun.p} for your ${ctx.family.containerNoun.s}`, `Get ready to ${verb.base} ${noun.p}`]);
      return { title, verb, noun };
    });
    const first = rng.int(0, ctx.topics.length - 1);
    const k = Math.min(ctx.topics.length, rng.int(2, 5));
    const chosen = Array.from({ length: k }, (_, i) => ctx.topics[(first + i * 7) % ctx.topics.length] as TopicPlan);
    const set: TopicSetPlan = {
      n: topicSets.length, id: `${ctx.id}-${ts.slug}`, slug: ts.slug, title: ts.title, ctx,
      topics: [...new Set(chosen)], lastPublished: isoDate(rng), verb: ts.verb, noun: ts.noun,
    };
    topicSets.push(set);
    ctx.topicSets.push(set);
    return set;
  };
  while (rest >= 3 && withTopics.length > 0) {
    const ctx = rng.weighted(ctxWeights);
    const sets = Math.min(rest - 1, rng.int(2, 4));
    const g = uniqueTitle(ctx.slugs, () => {
      const noun = rng.pick(ctx.family.nouns);
      const title = rng.pick([`Get started with ${noun.p}`, `Guide to ${rng.pick(VERBS).ing} ${noun.p}`, `Roll out ${noun.p} to your team`, `Your first week with ${noun.p}`, `Set up ${noun.p} from scratch`]);
      return { title, noun };
    });
    const guide: CollectionPlan = {
      id: `${ctx.id}-guide-${g.slug}`, slug: g.slug, title: g.title, ctx, theme: [g.noun], aspect: 'guide', lastPublished: isoDate(rng),
      children: [], topics: [], guide: true, subhead: `A step-by-step guide for ${ctx.family.name} ${ctx.deployment} teams.`,
    };
    for (let i = 0; i < sets; i++) guide.children.push(newTopicSet(ctx).id);
    collections.push(guide);
    ctx.collections.push(guide);
    rest -= 1 + sets;
  }
  for (; rest > 0; rest--) {
    if (withTopics.length === 0) { nKb += 1; continue; }
    const ctx = rng.weighted(ctxWeights);
    const set = newTopicSet(ctx);
    rng.pick(ctx.collections.filter((c) => !c.guide)).children.push(set.id);
  }

  // KB articles, spread over the families.
  const kbPer = apportion(nKb, families.map((f) => f.weight * (0.7 + rng.float() * 0.6)));
  const kb: KbPlan[] = [];
  families.forEach((family, fi) => {
    const cloudNouns = [...family.nouns, ...GENERIC_NOUNS, ...CLOUD_NOUNS];
    const dcNouns = [...family.nouns, ...GENERIC_NOUNS, ...DC_NOUNS];
    for (let i = 0; i < (kbPer[fi] ?? 0); i++) {
      const platform = rng.weighted<string>([['cloud-only', 30], ['cloud-and-data-center', 30], ['data-center-only', 30], ['data-center-and-cloud-by-request', 10]]);
      const pool = platform === 'cloud-only' ? cloudNouns : platform === 'data-center-only' ? dcNouns : [...family.nouns, ...GENERIC_NOUNS];
      const k = uniqueTitle(family.kbSlugs, () => kbTitle(rng, family, pool, platform));
      const article: KbPlan = {
        n: kb.length, id: `kb-${family.id}-${k.slug}`, slug: k.slug, title: k.title, family, platform, lastPublished: isoDate(rng),
        noun: k.noun, verb: k.verb, error: k.error, code: k.code, event: k.event, state: k.state, version: k.version, upgrade: k.upgrade,
      };
      kb.push(article);
      family.kb.push(article);
    }
  });

  return { families, contexts, topics, collections, topicSets, kb };
}

function kbTitle(rng: Rng, family: Family, pool: Noun[], platform: string) {
  const noun = rng.pick(pool);
  const other = rng.pick(pool);
  const verb = rng.pick(VERBS);
  const error = rng.pick(ERROR_MESSAGES);
  const code = `${family.abbr}-${rng.int(1000, 9999)}`;
  const dc = platform !== 'cloud-only';
  const version = rng.pick(family.dcVersions);
  const upgrade = dc && rng.chance(0.3);
  const event = place(upgrade ? `an upgrade to ${version}` : rng.pick(EVENTS), family);
  const state = rng.pick(STATES);
  const pattern = rng.int(0, 8);
  let title: string;
  switch (pattern) {
    case 0: title = `${cap(noun.s)} fails with "${error}"`; break;
    case 1: title = `${cap(noun.p)} not ${rng.pick(KB_PAST)} after ${event}`; break;
    case 2: title = `${cap(noun.s)} stuck in "${state}" state${rng.chance(0.6) ? ` after ${event}` : ''}`; break;
    case 3: title = `Error ${code} when ${verb.ing} ${noun.p}`; break;
    case 4: title = `Cannot ${verb.base} ${noun.p} after ${event}`; break;
    case 5: title = `Slow performance when ${verb.ing} ${noun.p}`; break;
    case 6: title = `${cap(noun.p)} missing from ${other.p} after ${event}`; break;
    case 7: title = `"${error}" when ${verb.ing} ${noun.p}`; break;
    default: title = `${cap(noun.s)} shows the wrong ${other.s} after ${event}`; break;
  }
  return { title, noun, verb, error, code, event, state, version, upgrade };
}

// ---------------------------------------------------------------------------------------------
// Bodies

/** What a body is about, for its sentences. */
interface Subject {
  rng: Rng;
  fam: Family;
  product: string;          // "Tracklight Cloud"
  deployment: Deployment;
  versions: string[];
  noun: Noun;
  verb: Verb;
  nouns: Noun[];
}

function fmtNumber(n: number): string { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ','); }
function kebab(s: string): string { return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, ''); }
function pascal(s: string): string { return s.split(/[^A-Za-z0-9]+/).filter(Boolean).map(cap).join(''); }
function dotted(s: string): string { return s.toLowerCase().replace(/[^a-z0-9]+/g, '.').replace(/^\.|\.$/g, ''); }

/** Fills {placeholders} of a sentence template. */
function fill(template: string, s: Subject): string {
  const r = s.rng;
  return template.replace(/\{(\w+)\}/g, (_, k: string) => {
    switch (k) {
      case 'P': return s.product;
      case 'Pn': return s.fam.name;
      case 'n': return s.noun.s;
      case 'ns': return s.noun.p;
      case 'Ns': return cap(s.noun.p);
      case 'N': return cap(s.noun.s);
      case 'm': return r.pick(s.nouns).s;
      case 'ms': return r.pick(s.nouns).p;
      case 'c': return s.fam.containerNoun.s;
      case 'a_n': return an(s.noun.s);
      case 'A_n': return cap(an(s.noun.s));
      case 'mins': { const m = r.pick([1, 2, 5, 10, 15, 30, 60]); return m === 1 ? '1 minute' : `${m} minutes`; }
      case 'cs': return s.fam.containerNoun.p;
      case 'v': return s.verb.base;
      case 'ving': return s.verb.ing;
      case 'ved': return s.verb.ed;
      case 'v2': return r.pick(VERBS).base;
      case 'set': return `**${r.pick(s.fam.settings)}**`;
      case 'key': return `\`${s.fam.id}.${dotted(r.pick(s.fam.settings))}\``;
      case 'num': return String(r.pick([2, 3, 5, 10, 15, 20, 25, 30, 50, 100]));
      case 'big': return fmtNumber(r.pick([1000, 2000, 5000, 10000, 25000, 50000, 100000, 250000]));
      case 'pct': return `${r.int(5, 95)}%`;
      case 'min': return String(r.pick([1, 2, 5, 10, 15, 30, 60]));
      case 'days': return String(r.pick([7, 14, 30, 60, 90, 180, 365]));
      case 'role': return `**${r.pick(s.fam.roles)}**`;
      case 'nav': return nav(s);
      case 'err': return `\`${s.fam.abbr}-${r.int(1000, 9999)}\``;
      case 'http': return r.pick(HTTP);
      case 'exc': return `\`${r.pick(EXCEPTIONS)}\``;
      case 'api': return `\`/rest/api/${r.int(1, 3)}/${kebab(s.noun.s)}\``;
      case 'method': return `\`${r.pick(METHODS)}\``;
      case 'btn': return `**${r.pick(BUTTONS)}**`;
      case 'team': return r.pick(TEAMS);
      case 'ver': return s.versions.length ? r.pick(s.versions) : `${r.int(8, 11)}.${r.int(0, 9)}`;
      case 'file': return `\`${s.fam.id}-${r.pick(['application', 'access', 'audit', 'gc', 'mail', 'index'])}.log\``;
      default: return k;
    }
  });
}

function nav(s: Subject): string {
  const r = s.rng;
  const first = r.chance(0.5) ? r.pick(s.fam.menus) : r.pick(['Settings', 'Administration', 'System', 'Security', 'Products']);
  const second = r.pick([...s.fam.menus, 'General', 'Advanced', 'Integrations', 'Notifications']);
  const parts = [first, second === first ? 'General' : second];
  if (r.chance(0.5)) parts.push(cap(s.noun.p));
  return parts.map((p) => `**${p}**`).join(' > ');
}

const SENTENCES = [
  'When you {v} {ns} in {P}, the change applies to every {m} that uses them.',
  'By default, {Pn} keeps {ns} for {days} days; after that a nightly job removes them.',
  'Only people with the {role} role can {v} {ns}.',
  'The {set} setting controls how many {ns} are processed at once, and the default of {num} suits most sites.',
  'If the operation fails, {Pn} records {err} together with the ID of the {n} in {file}.',
  'Sites with more than {big} {ns} should schedule this work outside business hours.',
  'You can also {v} {ns} with the REST API: send a {method} request to {api}.',
  'Changes take effect within {mins} and are recorded in the audit log.',
  'This is useful when several teams share {ns} across {cs}.',
  '{Ns} that you delete go to the trash, where you can restore them for {days} days.',
  'Each {c} can have up to {big} {ns}, and each {n} can reference up to {num} {ms}.',
  'Before you {v} {ns}, check that nobody else is editing them, because unsaved changes are lost.',
  'The {team} team, for example, uses {ns} to keep its {ms} consistent from one release to the next.',
  'Permissions on {a_n} are inherited from its {c} unless you override them.',
  '{Pn} shows a banner at the top of the page while {ving} is in progress.',
  'About {pct} of large customers {v} {ns} at least once a month.',
  '{A_n} can be linked to any number of {ms}, but only one of them is treated as the primary link.',
  'Search results include {ns} only after the index has been updated, which normally takes less than a minute.',
  'Use a descriptive name so that other people can recognise the {n} in lists and reports.',
  'If you {v} {a_n} by mistake, ask an administrator to restore it from the audit log.',
  'Notifications about {ns} are sent to the owner and to anyone who is watching the {c}.',
  'The same limits apply to {ns} created by apps and integrations.',
  'Exports contain every field of the {n}, including hidden fields and their history.',
  '{Ns} are evaluated in order, and the first one that matches wins.',
  'Administrators can turn this behaviour off with the {set} setting.',
  'Large imports are processed in batches of {num}, and you can follow their progress on the same page.',
  'When the limit is reached, {Pn} returns {http} and the response names the {n} that caused it.',
  'Rename {ns} with care: saved searches and links that use the old name keep working, but reports do not.',
  'We recommend reviewing {ns} every {days} days and archiving the ones that are no longer used.',
  'The {n} keeps a history of every change, including who made it and when.',
];
const CLOUD_SENTENCES = [
  '{P} applies a rate limit of {num} requests per second per user to this endpoint.',
  'New features for {ns} reach sites on the scheduled release track about {num} days after the continuous track.',
  'Sandboxes copy {ns} from production, so you can test changes before you apply them to everyone.',
  'Your data is stored in the region you chose for your organization, including backups of {ns}.',
  'Organization admins can see who changed {ns} in admin insights for the last {days} days.',
];
const DC_SENTENCES = [
  'On Data Center, each cluster node reads this value from {key} at start-up.',
  'In a cluster, the change is replicated to every node within {mins}.',
  'Version {ver} introduced a faster way to {v} {ns}; earlier versions lock the table while the job runs.',
  'Keep the database and every cluster node in the same data centre to avoid timeouts such as {exc}.',
  'Back up the database and the shared home directory before you {v} {ns} in bulk.',
  'The {file} file on each node records every attempt, with the node ID and the duration.',
];

const STEPS = [
  'Go to {nav}.',
  'Select **Create {n}** and enter a name and an optional description.',
  'Choose which {ms} to include, then select {btn}.',
  'Set {set} to the value you need and select {btn}.',
  'Select the {n} you want to change, then select **More** > **{V}**.',
  'Review the summary and select {btn} to confirm.',
  'Select the {c} that should own the {n}.',
  'Add the people or groups who can {v} the {n}.',
  'Check the preview, then select {btn}.',
  'Wait until the status changes to **Complete**; this can take a few minutes for large {cs}.',
  'Open the {n} again and check that the new values are shown.',
  'If you need to {v2} more than one {n}, repeat these steps or use the REST API.',
  'Copy the ID shown under **Details**; you need it for API calls.',
  'Turn on **Notify watchers** if people should receive an email about the change.',
];
const DC_STEPS = [
  'Stop {Pn} on the node with `sudo systemctl stop {fam}`.',
  'Edit {key} in the configuration file on every node.',
  'Restart the node and wait until it shows as **Active** on the **Clustering** page.',
  'Check {file} for errors before you move on to the next node.',
];
const BULLETS = [
  'You need the {role} role.',
  'The {n} must not be archived.',
  '{Ns} created by apps are included.',
  'Changes to {ns} are recorded in the audit log.',
  'Up to {big} {ns} per {c}.',
  'A stable connection to {P}; large operations can take several minutes.',
  'An API token if you want to {v} {ns} from a script.',
  '{Ns} shared with other {cs} are updated everywhere.',
  'Existing {ms} keep their current settings.',
  'The {set} setting, which defaults to {num}.',
];
const DC_BULLETS = [
  'A backup of the database and the shared home directory.',
  'All cluster nodes on the same version, for example {ver}.',
  'Shell access to every node as the user that runs {Pn}.',
];

const H2 = [
  'Before you begin', 'Prerequisites', '{V} {ns}', 'How {ns} work', 'Limits', 'Permissions you need', 'Troubleshooting',
  'Change the settings', 'Check the result', 'Related settings', 'Use the REST API', 'Automate {ving} {ns}', 'Next steps', 'Examples',
  'Known limitations', 'What changes for users', 'Plan the change', 'Undo the change',
];
const H3 = [
  'From the administration console', 'From the REST API', 'Example response', 'Default values', 'If the {n} is shared', 'For large {cs}',
  'Roll back', 'Verify the change', 'Check the logs', 'Error {err}', 'Options', 'For {team} teams',
];
const CALLOUTS: [string, string][] = [
  ['info', 'Changes to {ns} can take up to {mins} to appear for everyone.'],
  ['info', 'This feature is available on all plans. Some limits are higher on the Enterprise plan.'],
  ['tip', 'Use a naming convention for {ns}, such as the team name followed by the purpose, so they are easy to find in search.'],
  ['warning', 'Deleting {a_n} cannot be undone once the trash is emptied. Export it first if you might need it again.'],
  ['info', 'Only the {role} role can see this option. If it is missing, ask your administrator.'],
  ['warning', 'Do not {v} {ns} while an import is running; the import may fail with {err}.'],
  ['tip', 'You can {v} several {ns} at once by selecting them in the list and choosing **Bulk change**.'],
  ['success', 'When the job finishes, {Pn} sends you an email with a summary of the {ns} it changed.'],
];

class Body {
  lines: string[] = [];
  words = 0;
  constructor(readonly s: Subject) {}

  private count(text: string) { this.words += text.split(/\s+/).filter(Boolean).length; }
  text(line: string) { this.lines.push(line, ''); this.count(line); }
  raw(line: string) { this.lines.push(line); }
  blank() { this.lines.push(''); }
  /** Raw HTML the sanitiser keeps (details, kbd, sup, br in a table cell) and, now and then, something it removes. */
  html(r: Rng) {
    const product = this.s.product;
    this.raw('<details>');
    this.raw(`<summary>Keyboard shortcuts in ${product}</summary>`);
    this.blank();
    this.text(`Press <kbd>Ctrl</kbd>+<kbd>S</kbd> to save, and <kbd>Esc</kbd> to close the dialog.<sup>1</sup>`);
    this.raw('</details>');
    this.blank();
    if (r.chance(0.5)) this.text(`| Shortcut | Action |\n|---|---|\n| <kbd>G</kbd> then <kbd>H</kbd> | Go home<br>from any page |`);
    if (r.chance(0.1)) this.text(`<div class="note" onclick="track()" style="color: red">Changes apply to ${product} after a reload.</div>`);
  }

  private usedSentences = new Set<string>();
  sentence(): string {
    const r = this.s.rng;
    const pool = r.chance(0.25) ? (this.s.deployment === 'Cloud' ? CLOUD_SENTENCES : DC_SENTENCES) : SENTENCES;
    let template = r.pick(pool);
    for (let i = 0; i < 4 && this.usedSentences.has(template); i++) template = r.pick(SENTENCES);
    this.usedSentences.add(template);
    return fill(template, this.s);
  }
  paragraph(min = 2, max = 4) {
    const n = this.s.rng.int(min, max);
    this.text(Array.from({ length: n }, () => this.sentence()).join(' '));
  }
  private usedHeadings = new Set<string>();
  heading(level: 2 | 3, templates: string[]) {
    const free = templates.filter((t) => !this.usedHeadings.has(t));
    const template = this.s.rng.pick(free.length > 0 ? free : templates);
    this.usedHeadings.add(template);
    this.text(`${'#'.repeat(level)} ${cap(fill(template.replace('{V}', cap(this.s.verb.base)), this.s))}`);
  }
  /** Closes a directive right after its last block. */
  close(fence: string) {
    while (this.lines.at(-1) === '') this.lines.pop();
    this.lines.push(fence, '');
  }
  steps(min = 3, max = 6) {
    const r = this.s.rng;
    const pool = this.s.deployment === 'Data Center' && r.chance(0.4) ? [...STEPS, ...DC_STEPS] : STEPS;
    const n = r.int(min, max);
    const picked = [pool[0] as string, ...r.sample(pool.slice(1), n - 1)];
    picked.forEach((t, i) => {
      const line = `${i + 1}. ${fill(t.replace('{V}', cap(this.s.verb.base)).replace('{fam}', this.s.fam.id), this.s)}`;
      this.raw(line);
      this.count(line);
    });
    this.blank();
  }
  bullets(min = 2, max = 5) {
    const r = this.s.rng;
    const pool = this.s.deployment === 'Data Center' ? [...BULLETS, ...DC_BULLETS] : BULLETS;
    for (const t of r.sample(pool, r.int(min, max))) {
      const line = `- ${fill(t, this.s)}`;
      this.raw(line);
      this.count(line);
    }
    this.blank();
  }
  table() {
    const r = this.s.rng;
    const s = this.s;
    const rows: string[][] = [];
    let head: string[];
    switch (r.int(0, 2)) {
      case 0:
        head = ['Setting', 'Default', 'Description'];
        for (const name of r.sample(s.fam.settings, r.int(3, 5))) {
          rows.push([`**${name}**`, `\`${r.pick(['10', '30', '100', '500', 'true', 'false', '5m', '1h', '24h', '10 MB'])}\``, fill(r.pick(['Applies to every {n} in the {c}.', 'Changes take effect after {mins}.', 'Set to 0 to turn the limit off.', 'Only administrators can change it.', 'Read by every node at start-up.']), s)]);
        }
        break;
      case 1:
        head = ['Code', 'Message', 'What to do'];
        for (let i = r.int(3, 5); i > 0; i--) {
          rows.push([fill('{err}', s), r.pick(ERROR_MESSAGES), fill(r.pick(['Retry after {mins}.', 'Check the permissions of the {n}.', 'Reduce the number of {ns} in the request.', 'Contact support with the request ID.', 'Ask the {role} to raise the limit.']), s)]);
        }
        break;
      default: {
        const roles = r.sample(s.fam.roles, 2);
        head = ['Action', ...roles];
        for (const v of r.sample(VERBS, r.int(3, 5))) rows.push([`${cap(v.base)} ${s.noun.p}`, ...roles.map(() => r.pick(['Yes', 'No', 'Own only']))]);
      }
    }
    this.raw(`| ${head.join(' | ')} |`);
    this.raw(`|${head.map(() => '---').join('|')}|`);
    for (const row of rows) { const line = `| ${row.join(' | ')} |`; this.raw(line); this.count(line); }
    this.blank();
  }
  code() {
    const r = this.s.rng;
    const s = this.s;
    const fam = s.fam.id;
    const host = `${fam}.example.com`;
    const kind = r.int(0, s.deployment === 'Data Center' ? 5 : 3);
    let lang: string, title: string, body: string[];
    switch (kind) {
      case 0:
        lang = 'bash'; title = `${cap(s.verb.base)} ${an(s.noun.s)} with the REST API`;
        body = [
          `curl -s -X ${r.pick(['POST', 'PUT'])} "https://${host}/rest/api/${r.int(1, 3)}/${kebab(s.noun.s)}" \\`,
          '  -H "Authorization: Bearer $API_TOKEN" \\',
          '  -H "Content-Type: application/json" \\',
          `  -d '{"name": "${r.pick(TEAMS)} ${s.noun.s}", "${s.fam.containerNoun.s.replace(/\s+(\w)/g, (_, c: string) => c.toUpperCase())}Id": ${r.int(10000, 99999)}}'`,
        ];
        break;
      case 1:
        lang = 'json'; title = 'Example response';
        body = [
          '{',
          `  "id": "${r.int(10000, 99999)}",`,
          `  "type": "${kebab(s.noun.s)}",`,
          `  "name": "${r.pick(TEAMS)} ${s.noun.s}",`,
          `  "status": "${r.pick(['active', 'archived', 'pending'])}",`,
          `  "updated": "${isoDate(r)}"`,
          '}',
        ];
        break;
      case 2:
        lang = 'yaml'; title = `${kebab(s.noun.s)}.yaml`;
        body = [
          `${kebab(s.noun.s).replace(/-/g, '_')}:`,
          `  name: ${r.pick(TEAMS)} ${s.noun.s}`,
          `  ${dotted(r.pick(s.fam.settings)).replace(/\./g, '_')}: ${r.int(1, 500)}`,
          `  notify: ${r.pick(['true', 'false'])}`,
          `  owner: ${r.pick(['admin', 'team-lead', 'automation'])}`,
        ];
        break;
      case 3: {
        lang = 'text'; title = `Error shown in ${s.fam.name}`;
        body = [`${r.pick(HTTP)} ${r.pick(ERROR_MESSAGES)} (${s.fam.abbr}-${r.int(1000, 9999)}): the ${s.noun.s} could not be ${s.verb.ed}.`];
        break;
      }
      case 4: {
        lang = 'properties'; title = `<home>/${fam}-config.properties`;
        body = r.sample(s.fam.settings, 3).map((name) => `${fam}.${dotted(name)}=${r.pick(['10', '30', '120', '500', 'true', 'false'])}`);
        break;
      }
      default: {
        lang = 'text'; title = `<home>/log/${fam}-application.log`;
        const d = isoDate(r).replace('T', ' ').replace('Z', '');
        body = Array.from({ length: r.int(2, 4) }, (_, i) =>
          `${d.slice(0, 16)}:${String(10 + i * 7).padStart(2, '0')},${r.int(100, 999)} ${r.pick(LOG_LEVELS)} [http-nio-8080-exec-${r.int(1, 20)}] c.f.${s.fam.abbr.toLowerCase()}.${kebab(s.noun.s).replace(/-/g, '')}.${pascal(s.noun.s)}Manager: ${cap(s.verb.ing)} ${s.noun.p} took ${r.int(200, 90000)} ms`);
      }
    }
    this.raw(`\`\`\`${lang} title="${title}"`);
    for (const line of body) this.raw(line);
    this.raw('```');
    this.blank();
  }
  callout(fence = ':::') {
    const r = this.s.rng;
    const [appearance, text] = r.pick(CALLOUTS);
    const heading = r.chance(0.3) ? ` heading="${r.pick(['Before you start', 'Good to know', 'Keep in mind', 'Tip'])}"` : '';
    this.raw(`${fence}callout{appearance="${appearance}"${heading}}`);
    this.text(fill(text, this.s));
    this.close(fence);
  }
  toString() { return this.lines.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd() + '\n'; }
}

function subjectFor(rng: Rng, fam: Family, deployment: Deployment, noun: Noun, verb: Verb, ctxNouns: Noun[]): Subject {
  return {
    rng, fam, deployment, noun, verb, nouns: ctxNouns,
    product: `${fam.name} ${deployment}`, versions: deployment === 'Data Center' ? fam.dcVersions : [],
  };
}

function setDeployment(s: Subject, deployment: Deployment) {
  s.deployment = deployment;
  s.product = `${s.fam.name} ${deployment}`;
  s.nouns = [...s.fam.nouns, ...GENERIC_NOUNS, ...(deployment === 'Cloud' ? CLOUD_NOUNS : DC_NOUNS)];
}

/** Prose words of a Markdown body: code blocks and directive fences left out. */
function proseWords(body: string): number {
  let words = 0;
  let code = false;
  for (const line of body.split('\n')) {
    if (line.startsWith('```')) code = !code;
    else if (!code && !line.startsWith(':::')) words += line.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
  }
  return words;
}

/** Bodies of 150-600 words: a draw outside the range is redrawn with the next seed (deterministic). */
function withinRange(make: (attempt: number) => string): string {
  let body = '';
  for (let attempt = 0; attempt < 5; attempt++) {
    body = make(attempt);
    const words = proseWords(body);
    if (words >= 160 && words <= 590) break;  // a margin for other ways of counting
  }
  return body;
}

function topicBody(t: TopicPlan, seed: number): string {
  return withinRange((attempt) => topicBodyDraw(t, mix(seed, 2 + attempt * 100, t.n)));
}

function topicBodyDraw(t: TopicPlan, bodySeed: number): string {
  const rng = new Rng(bodySeed);
  const s = subjectFor(rng, t.ctx.family, t.ctx.deployment, t.noun, t.verb, t.ctx.nouns);
  const b = new Body(s);
  const target = rng.int(180, 520);
  b.paragraph(2, 3);
  const sections = target > 380 ? rng.int(3, 5) : rng.int(2, 4);
  const withTable = rng.chance(0.2);
  const withCode = rng.chance(0.55);
  const withCallout = rng.chance(0.6);
  const calloutAt = rng.int(0, sections - 1);
  const codeAt = rng.int(0, sections - 1);
  const tableAt = rng.int(0, sections - 1);
  const h3At = rng.chance(0.6) ? rng.int(0, sections - 1) : -1;
  for (let i = 0; i < sections; i++) {
    b.heading(2, H2);
    if (i === 0) {
      b.paragraph(1, 2);
      if (rng.chance(0.5)) b.steps(); else b.bullets();
    } else if (b.words < target) b.paragraph(1, 3);
    if (i === tableAt && withTable) b.table();
    if (i === codeAt && withCode) b.code();
    if (i === h3At) { b.heading(3, H3); if (rng.chance(0.5)) b.steps(2, 4); else b.paragraph(1, 2); }
    if (i === calloutAt && withCallout) b.callout();
    // Spread the words over the sections: each ends once its share of the target is reached.
    const share = (target * (i + 1)) / sections;
    for (let guard = 0; b.words < share - 25 && guard < 6; guard++) {
      if (guard === 2 && rng.chance(0.5)) b.bullets(2, 4); else b.paragraph(2, 3);
    }
  }
  // Raw HTML as real docs have it (about half the topics), drawn from a stream of its own so the rest
  // of the body is what it was before.
  const html = new Rng(mix(bodySeed, 7, t.n));
  if (html.chance(0.5)) b.html(html);
  const siblings = t.collection.topics;
  if (siblings.length > 1 && rng.chance(0.35)) {
    const links = rng.sample(siblings.filter((x) => x !== t), rng.int(1, 3));
    b.text(`## Related topics`);
    for (const l of links) b.raw(`- :link[${l.title}]{to="${l.id}"}`);
    b.blank();
  }
  return b.toString();
}

function kbBody(k: KbPlan, seed: number): string {
  return withinRange((attempt) => kbBodyDraw(k, mix(seed, 3 + attempt * 100, k.n)));
}

function kbBodyDraw(k: KbPlan, bodySeed: number): string {
  const rng = new Rng(bodySeed);
  const cloud = k.platform !== 'data-center-only';
  const dc = k.platform !== 'cloud-only';
  const deployment: Deployment = dc && (!cloud || rng.chance(0.5)) ? 'Data Center' : 'Cloud';
  const ctxNouns = [...k.family.nouns, ...GENERIC_NOUNS, ...(deployment === 'Cloud' ? CLOUD_NOUNS : DC_NOUNS)];
  const s = subjectFor(rng, k.family, deployment, k.noun, k.verb, ctxNouns);
  const b = new Body(s);
  const target = rng.int(170, 540);
  const name = k.family.name;

  b.raw(':::summary');
  b.text(fill(rng.pick([
    `When people ${k.verb.base} {ns} in ${name}, the operation does not complete. ${rng.pick(['The page shows an error', 'A message appears at the top of the page', 'The request fails after about a minute'])} and the ${k.noun.s} is left unchanged.`,
    `After ${k.event}, {ns} no longer behave as expected in ${name}. Users report that the ${k.noun.s} ${rng.pick(['stays in the "' + k.state + '" state', 'is not updated', 'disappears from search results', 'shows outdated values'])}.`,
    `${name} reports "${k.error}" while ${k.verb.ing} {ns}. The problem affects some users but not others, and retrying does not help.`,
  ]), s));
  if (rng.chance(0.5)) {
    b.raw(`\`\`\`text title="Error shown to users"`);
    b.raw(`${k.error} (${k.code})`);
    b.raw('```');
    b.blank();
  }
  b.close(':::');

  if (rng.chance(0.6)) {
    b.raw(':::diagnosis');
    b.steps(2, 4);
    if (dc && rng.chance(0.6)) {
      b.raw(`\`\`\`text title="<home>/log/${k.family.id}-application.log"`);
      const d = k.lastPublished.replace('T', ' ').replace('Z', '');
      b.raw(`${d.slice(0, 16)}:12,${rng.int(100, 999)} ERROR [${kebab(k.noun.s)}-worker-${rng.int(1, 8)}] c.f.${k.family.abbr.toLowerCase()}.service.${pascal(k.noun.s)}Service: ${k.code} ${k.error}`);
      b.raw('```');
      b.blank();
    } else b.paragraph(1, 2);
    b.close(':::');
  }

  b.raw(':::cause');
  b.text(fill(rng.pick([
    `${name} caches {ns} for {mins}. After ${k.event}, the cache still holds the old values, so the ${k.noun.s} is checked against settings that no longer apply.`,
    `A scheduled job that {ving} {ms} holds a lock on the same ${k.noun.s}. While the job runs, other requests wait and eventually fail with "${k.error}".`,
    `The {set} setting was reset to its default during ${k.event}. With the default value, ${name} rejects requests that contain more than {num} {ns}.`,
    `The account that the integration uses lost the {role} role, so every attempt to ${k.verb.base} {ns} is refused with {http}.`,
    `A reverse proxy or firewall in front of ${name} enforces its own limits. It ends the request before ${name} can finish ${k.verb.ing} the ${k.noun.s}.`,
  ]), s));
  if (b.words < target / 2) b.paragraph(2, 3);
  b.close(':::');

  const fence = rng.chance(0.35) ? '::::' : ':::';
  b.raw(`${fence}solution`);
  if (cloud && dc && rng.chance(0.6)) {
    b.raw('### On Data Center');
    b.blank();
    setDeployment(s, 'Data Center');
    b.steps(3, 5);
    if (rng.chance(0.6)) b.code();
    b.raw('### On Cloud');
    b.blank();
    setDeployment(s, 'Cloud');
    b.paragraph(1, 2);
  } else {
    b.steps(3, 6);
    if (rng.chance(0.5)) b.code();
  }
  for (let guard = 0; b.words < target - 25 && guard < 8; guard++) {
    if (guard === 1 && !(cloud && dc) && rng.chance(0.4)) b.heading(3, ['If the problem continues', 'Prevent it from happening again', 'Check the fix', 'Workaround']);
    b.paragraph(2, 3);
  }
  if (fence === '::::') b.callout(':::');
  b.close(fence);
  return b.toString();
}

function topicSetBody(t: TopicSetPlan, seed: number): string {
  const rng = new Rng(mix(seed, 4, t.n));
  const s = subjectFor(rng, t.ctx.family, t.ctx.deployment, t.noun, t.verb, t.ctx.nouns);
  const b = new Body(s);
  b.text(`In this part of the guide you ${t.verb.base} ${t.noun.p} for your ${t.ctx.family.containerNoun.s}. ${b.sentence()} It takes about ${rng.int(10, 45)} minutes.`);
  if (rng.chance(0.5)) b.paragraph(1, 2);
  return b.toString();
}

// ---------------------------------------------------------------------------------------------
// Files

/** A YAML scalar: plain when that is safe, otherwise double-quoted. */
function y(value: string): string {
  return /^[A-Za-z][A-Za-z0-9 ,.()'/-]*[A-Za-z0-9.)]$/.test(value) && !/^(yes|no|true|false|null|on|off)$/i.test(value) ? value : JSON.stringify(value);
}
function yList(values: string[]): string { return `[${values.map((v) => JSON.stringify(v)).join(', ')}]`; }
function meta(text: string): string { return text.length <= 300 ? text : `${text.slice(0, 296).replace(/\s+\S*$/, '')}...`; }

function frontMatter(fields: [string, string | undefined][]): string {
  const lines = fields.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}:${(v as string).startsWith('\n') ? '' : ' '}${v}`);
  return `---\n${lines.join('\n')}\n---\n`;
}

function topicFile(t: TopicPlan, seed: number): string {
  const product = `${t.ctx.family.name} ${t.ctx.deployment}`;
  const rng = new Rng(mix(seed, 5, t.n));
  const about = t.title.endsWith(` in ${t.ctx.family.name}`) ? t.title.slice(0, -(t.ctx.family.name.length + 4)) : t.title;
  const description = rng.pick([
    `${about} in ${product}: prerequisites, steps and limits.`,
    `${about} in ${product}. Learn who can do it, how it works and what changes for your team.`,
    `${about} in ${product}, with settings, examples and troubleshooting tips for ${t.noun.p}.`,
  ]);
  return frontMatter([
    ['id', t.id],
    ['title', y(t.title)],
    ['shortTitle', t.shortTitle ? y(t.shortTitle) : undefined],
    ['slug', t.slug],
    ['context', t.ctx.id],
    ['published', t.published ? undefined : 'false'],
    ['versions', t.versions ? yList(t.versions) : undefined],
    ['metaDescription', y(meta(description))],
    ['lastPublished', t.lastPublished],
  ]) + topicBody(t, seed);
}

function kbFile(k: KbPlan, seed: number): string {
  const cloud = `${k.family.id}-cloud`;
  const dc = `${k.family.id}-data-center`;
  const rng = new Rng(mix(seed, 6, k.n));
  const ver = k.version;
  const mod = k.upgrade ? 'and later' : rng.pick(['and later', 'and earlier', 'only']);
  const dcLine = `  - { product: ${dc}, platform: Data Center, versionNumber: "${ver}", versionModifier: ${mod} }`;
  const cloudLine = `  - { product: ${cloud}, platform: Cloud }`;
  const pv = k.platform === 'cloud-only' ? [cloudLine] : k.platform === 'data-center-only' ? [dcLine] : rng.chance(0.5) ? [cloudLine, dcLine] : [dcLine, cloudLine];
  const description = `${k.title.replace(/"/g, '')} in ${k.family.name}. ${rng.pick(['Find the cause and fix it.', 'Learn why it happens and how to resolve it.', 'Diagnose the problem and apply the workaround.'])}`;
  return frontMatter([
    ['id', k.id],
    ['title', y(k.title)],
    ['slug', k.slug],
    ['context', `${k.family.id}-kb`],
    ['platform', k.platform],
    ['lastPublished', k.lastPublished],
    ['metaDescription', y(meta(description))],
    ['productVersions', `\n${pv.join('\n')}`],
  ]) + kbBody(k, seed);
}

function collectionFile(c: CollectionPlan): string {
  const product = `${c.ctx.family.name} ${c.ctx.deployment}`;
  const lines = [
    `id: ${c.id}`,
    `title: ${y(c.title)}`,
    `slug: ${c.slug}`,
    `context: ${c.ctx.id}`,
    `subhead: ${y(c.subhead)}`,
    `description: ${y(`Guidance on ${c.theme.map((n) => n.p).join(' and ')} in ${product}, from first set-up to day-to-day administration.`)}`,
    `metaDescription: ${y(meta(`${c.title} in ${product}. Learn to work with ${c.theme.map((n) => n.p).join(' and ')}.`))}`,
    `lastPublished: ${c.lastPublished}`,
  ];
  if (c.guide) lines.push('pageType: Guide', 'buttonText: Start the guide');
  lines.push('children:', ...c.children.map((id) => `  - ${id}`));
  return `${lines.join('\n')}\n`;
}

function topicSetFile(t: TopicSetPlan, seed: number): string {
  return frontMatter([
    ['id', t.id],
    ['title', y(t.title)],
    ['slug', t.slug],
    ['context', t.ctx.id],
    ['description', y(`${cap(t.verb.base)} ${t.noun.p} in ${t.ctx.family.name} ${t.ctx.deployment}, one step at a time.`)],
    ['metaDescription', y(`${t.title} in ${t.ctx.family.name} ${t.ctx.deployment}: a short guide in ${t.topics.length} steps.`)],
    ['lastPublished', t.lastPublished],
    ['topics', `\n${t.topics.map((x) => `  - ${x.id}`).join('\n')}`],
  ]) + topicSetBody(t, seed);
}

const RESOURCE_CARDS = [
  { id: 'community', title: 'Community', text: 'Ask questions and share answers with other customers.', link: 'https://community.example.com' },
  { id: 'developer-docs', title: 'Developer documentation', text: 'REST APIs, webhooks and app frameworks.', link: 'https://developer.example.com' },
  { id: 'training', title: 'Training', text: 'Free courses and certifications.', link: 'https://learn.example.com' },
  { id: 'status', title: 'System status', text: 'Current incidents and scheduled maintenance.', link: 'https://status.example.com' },
];

/** Products, contexts, pages and the single files. */
function structuralFiles(plan: Plan): [string, string][] {
  const files: [string, string][] = [];
  const date = '2026-09-01T09:00:00Z';
  for (const ctx of plan.contexts) {
    const fam = ctx.family;
    const dc = ctx.deployment === 'Data Center';
    const icon = `/assets/content/icons/${fam.id}.svg`;
    const product = [
      `id: ${ctx.id}`, `productNameId: ${fam.id}`, `productName: ${fam.name}`, `internalTitle: ${fam.name} ${ctx.deployment}`,
      `deployment: ${ctx.deployment}`, `icon: { url: ${icon} }`,
      `productBlurb: ${y(dc ? `${fam.blurb} Self-managed on your own infrastructure.` : fam.blurb)}`,
      `supportTitle: ${fam.name} ${ctx.deployment} support`, 'hasProductLandingPage: true', `resourceSlug: ${ctx.id}`,
      'deploymentUrls:', `  cloud: /${fam.id}-cloud`, `  server: /${fam.id}-data-center`,
      `customSupportFormAuthenticated: https://support.example.com/forms/${ctx.id}`,
      `customSupportFormUnauthenticated: https://support.example.com/forms/${ctx.id}/guest`,
    ];
    if (dc) {
      product.push('versions:', ...ctx.versions.map((v) => `  - { number: "${v}", spaceId: ${fam.abbr}DC${v.replace(/\./g, '')}, showInList: true }`));
    }
    files.push([`products/${ctx.id}.yaml`, `${product.join('\n')}\n`]);
    const collections = ctx.collections.length > 0 ? `collections: [${ctx.collections.map((c) => c.id).join(', ')}]\n` : '';
    files.push([`pages/${ctx.id}-docs.yaml`,
      `id: ${ctx.id}-docs\npageType: documentedProduct\ntitle: ${fam.name} ${ctx.deployment} documentation\n` +
      `tagline: "Guides, how-tos and reference for ${fam.name} ${ctx.deployment}."\ncontext: ${ctx.id}\nicon: { url: ${icon} }\n` +
      `metaDescription: "Documentation for ${fam.name} ${ctx.deployment}: set-up, administration, features and troubleshooting."\n` +
      `lastPublished: ${date}\n${collections}`]);
    files.push([`pages/${ctx.id}-landing.yaml`,
      `id: ${ctx.id}-landing\npageType: productLanding\ntitle: ${fam.name} ${ctx.deployment} support\ntagline: ${y(fam.blurb)}\n` +
      `context: ${ctx.id}\nicon: { url: ${icon} }\n` +
      `metaDescription: "Get help with ${fam.name} ${ctx.deployment}: documentation, knowledge base, resources and support requests."\n` +
      `lastPublished: ${date}\n${ctx.collections.length > 0 ? `collections: [${ctx.collections.slice(0, 6).map((c) => c.id).join(', ')}]\n` : ''}` +
      `resourceCards: [${RESOURCE_CARDS.map((r) => r.id).join(', ')}]\n` +
      `supportForm:\n  authenticated: https://support.example.com/forms/${ctx.id}\n  unauthenticated: https://support.example.com/forms/${ctx.id}/guest\n`]);
  }
  for (const fam of plan.families) {
    files.push([`contexts/${fam.id}-kb.yaml`, `id: ${fam.id}-kb\ntype: knowledgeBase\nproductName: ${fam.name}\nproductNameId: ${fam.id}\nkbHomePage: ${fam.id}-kb-home\n`]);
    files.push([`pages/${fam.id}-kb-home.yaml`,
      `id: ${fam.id}-kb-home\npageType: kbHome\ntitle: ${fam.name} Knowledge Base\ncontext: ${fam.id}-kb\n` +
      `metaDescription: Troubleshooting articles and known issues for ${fam.name} Cloud and Data Center.\nlastPublished: ${date}\n`]);
  }
  for (const r of RESOURCE_CARDS) {
    files.push([`resource-cards/${r.id}.yaml`,
      `id: ${r.id}\ntitle: ${r.title}\nshortTitle: ${r.title}\nshortDescription: ${r.text}\nbuttonLink: ${r.link}\nbuttonText: Open ${r.title.toLowerCase()}\nfeatured: true\n`]);
  }
  const featured = plan.topics.filter((t) => t.ctx.deployment === 'Cloud' && t.published).slice(0, 4);
  if (featured.length > 0) {
    files.push(['featured/home-featured.yaml', `id: home-featured\ntitle: Popular right now\nfeaturedEntries:\n${featured
      .map((t, i) => `  - { id: featured-${i + 1}, url: /${t.ctx.id}/docs/${t.slug}, linkText: ${JSON.stringify(t.title)}, linkTarget: _self, type: topic }`).join('\n')}\n`]);
  }
  files.push(['pages/home.yaml',
    'id: home\npageType: home\ntitle: Example Support\ntagline: Documentation, knowledge base and help for every product.\n' +
    `metaDescription: Find documentation, guides and troubleshooting articles for ${plan.families.map((f) => f.name).join(', ')}.\n` +
    `lastPublished: ${date}\n${featured.length > 0 ? 'featuredContent: home-featured\n' : ''}resourceCards: [${RESOURCE_CARDS.map((r) => r.id).join(', ')}]\n` +
    'searchOptions:\n  sortOptions: [relevance, last_published]\n']);
  files.push(['pages/search-results.yaml', 'id: search-results\npageType: searchResults\ntitle: Search Example Support\nmetaDescription: Search documentation, guides and knowledge-base articles.\n']);
  files.push(['pages/not-found.md', "---\nid: not-found\npageType: notFound\ntitle: We can't find that page\n---\nThe page may have moved, or the link you followed may be out of date. Search for what you need, or start again from the support home page.\n"]);
  files.push(['site.yaml',
    'id: site\nsiteName: Example Support\nbrand: Example\nlegalName: Example Software Pty Ltd\npublisher: Example Software\nlanguage: en-US\n' +
    `license: All rights reserved\nlogo: /assets/content/example-logo.svg\nowns: [${plan.families.map((f) => f.name).join(', ')}]\n`]);
  const guides = plan.collections.filter((c) => c.guide && c.ctx.deployment === 'Cloud').slice(0, 3);
  const cloud = plan.contexts.filter((c) => c.deployment === 'Cloud');
  const dc = plan.contexts.filter((c) => c.deployment === 'Data Center');
  files.push(['header.yaml', [
    'id: header',
    'logo:', '  v1: { url: /assets/content/example-logo.svg }', '  v2: { url: /assets/content/example-logo.svg }', '  v3: { url: /assets/content/example-logo.svg }',
    'supportLogo: { url: /assets/content/example-support-logo.svg }', 'vendorLogo: { url: /assets/content/example-logo.svg }',
    'cloudProducts:', ...cloud.map((c) => `  - { product: ${c.id} }`),
    'serverProducts:', ...dc.map((c) => `  - { product: ${c.id} }`),
    'additionalLinks:',
    '  - { id: status-link, linkLabel: System status, linkUrl: "https://status.example.com", linkIcon: info }',
    '  - { id: community-link, linkLabel: Community, linkUrl: "https://community.example.com", linkIcon: user }',
    `resources: [${RESOURCE_CARDS.map((r) => r.id).join(', ')}]`,
    guides.length > 0 ? 'guides:' : 'guides: []',
    ...guides.map((g) => `  - { title: ${JSON.stringify(g.title)}, url: /${g.ctx.id}/docs/${g.slug}, description: ${JSON.stringify(g.subhead)} }`),
    'documentation:',
    ...cloud.slice(0, 4).map((c) => `  - { id: doc-${c.id}, title: ${c.family.name} Cloud, url: /${c.id}/docs, description: ${JSON.stringify(c.family.blurb)} }`),
    'menus:',
    '  - id: menu-learn',
    '    heading: Learn',
    '    primarySectionRows: 2',
    '    primarySection:',
    '      - { title: Example University, buttonLink: "https://learn.example.com", shortDescription: Free courses and certifications. }',
    '      - { title: Webinars, buttonLink: "https://learn.example.com/webinars", shortDescription: Live sessions with product experts. }',
    '    secondarySection:',
    '      heading: Popular courses',
    '      numberOfColumns: 2',
    '      resources:',
    ...plan.families.slice(0, 4).map((f) => `        - { linkText: ${f.name} fundamentals, url: "https://learn.example.com/${f.id}-fundamentals" }`),
    'showPreviewBanner: true',
  ].join('\n') + '\n']);
  return files;
}

/** A small square with the file's initial: enough to be a valid image the pages can show. */
function placeholderSvg(path: string): string {
  const letter = (path.split('/').pop() ?? 'x').charAt(0).toUpperCase();
  return `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1d4ed8"/>` +
    `<text x="16" y="22" font-family="sans-serif" font-size="16" text-anchor="middle" fill="#fff">${letter}</text></svg>\n`;
}

// ---------------------------------------------------------------------------------------------
// Main

async function prepareOut(out: string, force: boolean) {
  const dangerous = [resolve('/'), homedir(), process.cwd()].some((d) => d === out || (d + sep).startsWith(out + sep));
  if (dangerous) fail(`refusing to write to ${out}: it is the root, the home directory or contains the working directory`);
  let entries: string[] = [];
  try {
    entries = await readdir(out);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (entries.length > 0) {
    if (!force) fail(`${out} is not empty; use --force to delete it and generate again`);
    await rm(out, { recursive: true, force: true });
  }
  await mkdir(out, { recursive: true });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const t0 = performance.now();
  await prepareOut(options.out, options.force);
  const { seed, out } = options;
  const plan = makePlan(options.count, seed);

  type Job = [path: string, make: () => string];
  const jobs: Job[] = [];
  for (const [path, text] of structuralFiles(plan)) jobs.push([path, () => text]);
  // The images the structural files name: the check refuses a tree whose images are missing.
  for (const path of ['assets/content/example-logo.svg', 'assets/content/example-support-logo.svg',
    ...plan.families.map((f) => `assets/content/icons/${f.id}.svg`)]) jobs.push([path, () => placeholderSvg(path)]);
  for (const t of plan.topics) jobs.push([`topics/${t.ctx.id}/${t.slug}.md`, () => topicFile(t, seed)]);
  for (const k of plan.kb) jobs.push([`kb/${k.family.id}/${k.slug}.md`, () => kbFile(k, seed)]);
  for (const c of plan.collections) jobs.push([`collections/${c.id}.yaml`, () => collectionFile(c)]);
  for (const t of plan.topicSets) jobs.push([`topic-sets/${t.id}.md`, () => topicSetFile(t, seed)]);

  await Promise.all([...new Set(jobs.map(([p]) => dirname(join(out, p))))].map((d) => mkdir(d, { recursive: true })));
  const BATCH = 256;
  let bytes = 0;
  for (let i = 0; i < jobs.length; i += BATCH) {
    await Promise.all(jobs.slice(i, i + BATCH).map(([path, make]) => {
      const text = make();
      bytes += Buffer.byteLength(text);
      return writeFile(join(out, path), text);
    }));
  }

  const documents = plan.topics.length + plan.kb.length + plan.collections.length + plan.topicSets.length;
  const ms = Math.round(performance.now() - t0);
  console.log(`Wrote ${jobs.length} files (${documents} documents: ${plan.topics.length} topics, ${plan.kb.length} KB articles, ` +
    `${plan.collections.length} collections, ${plan.topicSets.length} topic sets; ${(bytes / 1048576).toFixed(1)} MB) to ${out} in ${ms} ms (seed ${seed})`);
}

await main();
