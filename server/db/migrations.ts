/**
 * Versioned schema changes, applied in order, each once, each in its own transaction.
 * Never edit a released migration: add the next version.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'content store',
    sql: /* sql */ `
      create table content_entries (
        id             text primary key,
        type           text not null,
        published      boolean not null default true,
        source         text not null,
        source_line    integer not null default 1,
        path           text,
        title          text,
        context_id     text,
        product_id     text,
        deployment     text,
        versions       text[] not null default '{}',
        language       text not null default 'en-US',
        last_published timestamptz,
        fields         jsonb not null,
        document       jsonb,
        html           text
      );
      create index content_entries_type_idx on content_entries (type);
      create index content_entries_context_idx on content_entries (context_id);

      -- Every URL a page answers on (one per version for versioned documentation).
      create table content_routes (
        path     text primary key,
        entry_id text not null references content_entries (id) on delete cascade,
        version  text
      );
      create index content_routes_entry_idx on content_routes (entry_id);

      create table content_imports (
        id           serial primary key,
        digest       text not null,
        entry_count  integer not null,
        source       text not null,
        duration_ms  integer not null,
        finished_at  timestamptz not null default now()
      );
    `,
  },
  {
    version: 2,
    name: 'feedback and instance secrets',
    sql: /* sql */ `
      -- One row per visitor and entry: a repeated submission updates it instead of adding another.
      create table feedback (
        id           bigserial primary key,
        entry_id     text not null,
        visitor_key  text not null,
        helpful      boolean not null,
        reason       text check (reason in ('not-accurate', 'not-clear', 'not-relevant')),
        created_at   timestamptz not null default now(),
        updated_at   timestamptz not null default now(),
        unique (entry_id, visitor_key)
      );
      create index feedback_entry_idx on feedback (entry_id);

      -- Secrets every instance sharing this database must agree on (form tokens).
      create table app_secrets (
        name       text primary key,
        value      text not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    version: 3,
    name: 'full-text search',
    sql: /* sql */ `
      create extension if not exists pg_trgm;

      alter table content_entries
        add column description text,
        add column search_text text,
        add column product_name_id text,
        add column num_views integer not null default 0;
      -- Title weighs more than description, description more than body (issue: search engine).
      alter table content_entries add column search_vector tsvector generated always as (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(description, '')), 'B') ||
        setweight(to_tsvector('english', coalesce(search_text, '')), 'C')
      ) stored;
      create index content_entries_search_idx on content_entries using gin (search_vector);
      -- Title and description alone: broad queries rank only the documents these match.
      alter table content_entries add column head_vector tsvector generated always as (
        setweight(to_tsvector('english', coalesce(title, '')), 'A') ||
        setweight(to_tsvector('english', coalesce(description, '')), 'B')
      ) stored;
      create index content_entries_head_idx on content_entries using gin (head_vector);
      create index content_entries_published_idx on content_entries (last_published desc nulls last);

      -- Trust factors per entry, kept current by the feedback route.
      create table entry_stats (
        entry_id      text primary key,
        helpful_count integer not null default 0,
        num_views     integer not null default 0
      );

      -- Words of the corpus, for spelling suggestions.
      create table search_vocabulary (
        word      text primary key,
        frequency integer not null
      );
      create index search_vocabulary_trgm_idx on search_vocabulary using gin (word gin_trgm_ops);
    `,
  },
  {
    version: 4,
    name: 'narrow search table',
    sql: /* sql */ `
      -- Every combination of the facets a document can have (type, language, product, platform,
      -- versions): a few hundred rows at most, so facets and filters are worked out on these.
      create table search_facet_keys (
        key             integer primary key,
        type            text not null,
        lang            text not null,
        product_name_id text,
        platform        text not null,
        versions        text[] not null
      );

      -- Searching reads only these columns: counting and faceting a broad match set stays off the
      -- wide content rows (documents, HTML, body text). Filled by the import, in its transaction.
      create table search_documents (
        id             text primary key,
        facet_key      integer not null,
        last_published timestamptz,
        num_views      integer not null default 0,
        search_vector  tsvector not null,
        head_vector    tsvector not null
      );
      create index search_documents_search_idx on search_documents using gin (search_vector);
      create index search_documents_head_idx on search_documents using gin (head_vector);
      create index search_documents_newest_idx on search_documents (last_published desc nulls last, id);

      -- How many documents of each facet key hold a frequent word: a one-word search for it is
      -- counted from here instead of visiting every match.
      create table search_term_counts (
        lexeme    text not null,
        facet_key integer not null,
        count     integer not null,
        primary key (lexeme, facet_key)
      );

      create temporary table searchable on commit drop as
        select id, type, split_part(language, '-', 1) as lang, product_name_id,
          case when deployment = 'Cloud' then 'cloud' else 'data_center' end as platform, versions,
          last_published, num_views, search_vector, head_vector
        from content_entries
        where published and type in ('topic', 'topicSet', 'collection', 'kbArticle');
      insert into search_facet_keys (key, type, lang, product_name_id, platform, versions)
        select row_number() over (order by type, lang, product_name_id, platform, versions), *
        from (select distinct type, lang, product_name_id, platform, versions from searchable) as combinations;
      insert into search_documents (id, facet_key, last_published, num_views, search_vector, head_vector)
        select s.id, k.key, s.last_published, s.num_views, s.search_vector, s.head_vector
        from searchable s join search_facet_keys k
          on k.type = s.type and k.lang = s.lang and coalesce(k.product_name_id, '') = coalesce(s.product_name_id, '')
          and k.platform = s.platform and k.versions = s.versions
        order by s.last_published desc nulls last, s.id;
      insert into search_term_counts (lexeme, facet_key, count)
        select lexeme, facet_key, count from (
          select u.lexeme, d.facet_key, count(*)::int as count, sum(count(*)) over (partition by u.lexeme) as documents
          from search_documents d, unnest(tsvector_to_array(d.search_vector)) as u(lexeme)
          group by 1, 2
        ) as per_key
        where documents >= 1500;

      alter table content_entries drop column search_vector, drop column head_vector;
    `,
  },
  {
    version: 5,
    name: 'rate limits and helpfulness that a burst cannot buy',
    sql: /* sql */ `
      -- Fixed-window counters of state-changing requests, shared by every instance (issue 8 item 8).
      -- key is a hash of the route and the client address; window_start is in epoch milliseconds.
      create table rate_limits (
        key          text primary key,
        window_start bigint not null,
        count        integer not null
      );
      create index rate_limits_window_idx on rate_limits (window_start);

      -- Where an answer came from (a keyed hash of the client's network, never the address), on
      -- which day, and whether it counts towards helpfulness: only once the visitor is established
      -- (it came back with the signed visitor cookie it was given). See server/routes/feedback.ts.
      alter table feedback
        add column network_key text,
        add column answered_on date not null default current_date,
        add column counted boolean not null default false;
      -- Answers given before this version keep counting as they did: one per visitor.
      update feedback set network_key = 'visitor:' || visitor_key, answered_on = created_at::date, counted = true;
      create index feedback_visitor_idx on feedback (visitor_key);
    `,
  },
  {
    version: 6,
    name: 'search Japanese and Chinese by character pairs',
    sql: /* sql */ `
      -- The English parser keeps a run of Japanese or Chinese as one word, so such text was matched
      -- as substrings, row by row, at a cost that grew with the query (issue 8). Each run is now
      -- stored as its overlapping character pairs and its last character, searchable through the
      -- GIN indexes. Letters only, so the text parser keeps each pair as one word on every locale.
      create function search_cjk_grams(body text) returns text language sql immutable parallel safe as $$
        select coalesce(string_agg(case when i < length(run) then substr(run, i, 2) else substr(run, i, 1) end, ' ' order by n, i), '')
        from regexp_matches(coalesce(body, ''), '[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+', 'g') with ordinality as m(found, n),
          lateral (select m.found[1] as run) as r,
          lateral generate_series(1, length(r.run)) as i
      $$;
      -- A text's weighted vector: its English words (the CJK runs taken out) and its CJK pairs.
      create function search_vector_of(body text, weight "char") returns tsvector language sql immutable parallel safe as $$
        select setweight(to_tsvector('english', regexp_replace(coalesce(body, ''), '[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+', ' ', 'g'))
          || to_tsvector('simple', search_cjk_grams(body)), weight)
      $$;

      -- Documents without such text keep the same vectors; the others are made again.
      create temporary table cjk_documents on commit drop as
        select e.id, search_vector_of(e.title, 'A') || search_vector_of(e.description, 'B') as head, e.search_text
        from content_entries e join search_documents d on d.id = e.id
        where concat(e.title, e.description, e.search_text) ~ '[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]';
      update search_documents d set head_vector = c.head, search_vector = c.head || search_vector_of(c.search_text, 'C')
        from cjk_documents c where c.id = d.id;
      -- Kept counts of CJK words no longer match the vectors: such words are counted from the
      -- documents until the next import keeps them again.
      delete from search_term_counts where lexeme ~ '[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]';
      drop table cjk_documents;
    `,
  },
  {
    version: 7,
    name: 'people: accounts, sign-in throttle, the embedded OpenID provider store',
    sql: /* sql */ `
      -- Accounts of the embedded identity provider (server/identity/). E-mail is kept as given and
      -- matched lower-cased; passwords only as scrypt hashes (server/identity/passwords.ts).
      create table accounts (
        id             text primary key,
        email          text not null,
        display_name   text not null default '',
        password_hash  text not null,
        can_edit       boolean not null default false,
        partner        boolean not null default false,
        groups         text[] not null default '{}',
        -- Cohort attributes (spec §7 csm-experiment), a flat JSON object.
        attributes     jsonb not null default '{}',
        disabled       boolean not null default false,
        created_at     timestamptz not null default now(),
        updated_at     timestamptz not null default now()
      );
      create unique index accounts_email_idx on accounts (lower(email));

      -- Failed sign-ins per login name (known or not, so the answer tells nothing about which exist).
      create table sign_in_failures (
        login          text primary key,
        failures       integer not null,
        first_at       timestamptz not null,
        locked_until   timestamptz
      );

      -- The embedded provider's short-lived models (sessions, interactions, codes, grants, tokens),
      -- one row each, as oidc-provider's adapter contract describes them.
      create table oidc_models (
        kind         text not null,
        id           text not null,
        payload      jsonb not null,
        grant_id     text,
        user_code    text,
        uid          text,
        expires_at   timestamptz,
        consumed_at  timestamptz,
        primary key (kind, id)
      );
      create index oidc_models_grant_idx on oidc_models (grant_id) where grant_id is not null;
      create index oidc_models_uid_idx on oidc_models (uid) where uid is not null;
      create index oidc_models_expires_idx on oidc_models (expires_at);
    `,
  },
  {
    version: 8,
    name: 'support requests, their attachments, status history, delivery outbox, named contacts',
    sql: /* sql */ `
      -- Request references: {prefix}-{number} (REQUEST_REFERENCE_PREFIX), numbers from 10001 up.
      create sequence support_request_numbers start 10001;

      -- Support requests (server/support/). Written with their deliveries in one transaction, before
      -- the visitor is told they were received. All of it is private: only its account, staff, or the
      -- helpdesk's token may read it.
      create table support_requests (
        reference        text primary key,
        -- The form definition (content forms/*.yaml) and the page kind it was sent from.
        form_id          text not null,
        kind             text not null,
        -- A random key the form carried: a double submit or a reload finds the request it made.
        submission_key   text not null unique,
        -- A hash of what was sent: the same key with different contents is not a duplicate.
        fingerprint      text not null,
        -- The signed-in account (the issuer's subject), or null for an anonymous visitor.
        account_id       text,
        email            text not null,
        name             text not null default '',
        -- Sent as a partner user (spec §6), seen under the partner's requests.
        partner          boolean not null default false,
        subject          text not null,
        product          text,
        version          text,
        severity         text,
        -- Every field's value by field name, as validated.
        fields           jsonb not null default '{}',
        -- Where it came from: page URL, page id, product name, feedback reason, language, host.
        context          jsonb not null default '{}',
        language         text not null default 'en-US',
        -- The helpdesk's status (POST /api/requests/{reference}/status); 'open' until it says otherwise.
        status           text not null default 'open',
        created_at       timestamptz not null default now(),
        updated_at       timestamptz not null default now()
      );
      create index support_requests_account_idx on support_requests (account_id, created_at desc) where account_id is not null;
      create index support_requests_email_idx on support_requests (lower(email), created_at desc);
      create index support_requests_created_idx on support_requests (created_at desc);

      create table support_request_attachments (
        id               bigint generated always as identity primary key,
        reference        text not null references support_requests (reference) on delete cascade,
        filename         text not null,
        content_type     text not null,
        size             integer not null,
        data             bytea not null,
        created_at       timestamptz not null default now()
      );
      create index support_request_attachments_ref_idx on support_request_attachments (reference);

      -- The request's history: created, then each status the helpdesk reports.
      create table support_request_updates (
        id               bigint generated always as identity primary key,
        reference        text not null references support_requests (reference) on delete cascade,
        status           text not null,
        note             text not null default '',
        -- Who said it: 'visitor', 'helpdesk', 'staff'.
        source           text not null,
        created_at       timestamptz not null default now()
      );
      create index support_request_updates_ref_idx on support_request_updates (reference, created_at);

      -- The transactional outbox: one row per request and channel, written with the request. Workers on
      -- any instance claim due rows (FOR UPDATE SKIP LOCKED) for a lease, deliver, and mark them.
      create table support_deliveries (
        id               bigint generated always as identity primary key,
        reference        text not null references support_requests (reference) on delete cascade,
        channel          text not null,
        state            text not null default 'pending',
        attempts         integer not null default 0,
        next_attempt_at  timestamptz not null default now(),
        leased_until     timestamptz,
        last_error       text,
        delivered_at     timestamptz,
        created_at       timestamptz not null default now(),
        unique (reference, channel)
      );
      create index support_deliveries_due_idx on support_deliveries (next_attempt_at) where state = 'pending';

      -- An account's named support contacts (/named-contact), kept by the account itself.
      create table named_contacts (
        id               bigint generated always as identity primary key,
        account_id       text not null,
        email            text not null,
        name             text not null default '',
        created_at       timestamptz not null default now()
      );
      create unique index named_contacts_account_email_idx on named_contacts (account_id, lower(email));
    `,
  },
  {
    version: 9,
    name: 'content files',
    sql: `
      -- Images and files the content's bodies use, keyed by their content hash (server/content/files.ts):
      -- written in the import's transaction, so every instance serves the same files and a failed import
      -- leaves the old ones.
      create table content_files (
        hash             text primary key,
        name             text not null,
        type             text not null,
        size             integer not null,
        data             bytea not null
      );
    `,
  },
  {
    version: 10,
    name: 'search by title, headings and codes',
    sql: /* sql */ `
      -- A code glued by dots, slashes, colons or underscores is one word to the English parser
      -- ('java.lang.outofmemoryerror', 'a/b'): its parts are stored too, in order, so a query for the
      -- code as the phrase of its parts (server/search/query.ts) or for one of its parts finds it.
      create function search_code_parts(body text) returns text language sql immutable parallel safe as $$
        select coalesce(string_agg(regexp_replace(m.found[1], '[^[:alnum:]]+', ' ', 'g'), ' ; '), '')
        from regexp_matches(coalesce(body, ''), '([[:alnum:]_]+(?:[./:\\\\][[:alnum:]_]+)+)', 'g') as m(found)
      $$;
      create or replace function search_vector_of(body text, weight "char") returns tsvector language sql immutable parallel safe as $$
        select setweight(to_tsvector('english', regexp_replace(coalesce(body, ''), '[\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+', ' ', 'g'))
          || to_tsvector('english', search_code_parts(body))
          || to_tsvector('simple', search_cjk_grams(body)), weight)
      $$;
      -- The vectors are made again by the next import (IMPORT_FORMAT 6).
    `,
  },
  {
    version: 11,
    name: 'a hash of each content row, for imports that write only what changed',
    sql: /* sql */ `
      -- The import compares these with the hashes of the rows it would write, and writes only the
      -- entries whose row changed (server/content/import.ts). Null (rows stored before) never matches.
      alter table content_entries add column row_hash text;
    `,
  },
  {
    version: 12,
    name: 'assistant passages',
    sql: /* sql */ `
      -- The sections of every searchable body, what the assistant retrieves and quotes
      -- (server/assistant/passages.ts); written by the next import (IMPORT_FORMAT 7).
      create table assistant_passages (
        entry_id text not null references content_entries (id) on delete cascade,
        position integer not null,
        anchor   text,
        heading  text,
        body     text not null,
        vector   tsvector not null,
        primary key (entry_id, position)
      );
      create index assistant_passages_vector_idx on assistant_passages using gin (vector);
    `,
  },
  {
    version: 13,
    name: 'first-party analytics events and their daily aggregates',
    sql: /* sql */ `
      -- Events as recorded (server/events/): what was done, where and when, with the visitor's session and
      -- persistent ids from browser storage (no cookie, no IP address). Search terms are masked before they
      -- are stored. Each event carries one sub-dimension (key) and one measure (value); what they mean per
      -- type is listed in server/events/catalogue.ts. Kept for ANALYTICS_RETENTION_DAYS, then only the
      -- daily aggregates remain.
      create table analytics_events (
        id            bigserial primary key,
        occurred_at   timestamptz not null,
        type          text not null,
        source        text not null check (source in ('client', 'server')),
        session_id    text,
        persistent_id text,
        path          text not null default '',
        entry_id      text,
        product       text not null default '',
        term          text not null default '',
        query_id      text,
        key           text not null default '',
        value         double precision,
        data          jsonb not null default '{}'::jsonb
      );
      create index analytics_events_time_idx on analytics_events (occurred_at);
      create index analytics_events_type_time_idx on analytics_events (type, occurred_at);

      -- One row per UTC day and dimensions: the number of events and the sum of their values.
      create table analytics_daily (
        day      date not null,
        type     text not null,
        path     text not null default '',
        product  text not null default '',
        term     text not null default '',
        key      text not null default '',
        count    bigint not null,
        total    double precision not null default 0,
        primary key (day, type, path, product, term, key)
      );
      -- The days already rolled up into analytics_daily (their raw events may be gone).
      create table analytics_rollups (
        day       date primary key,
        rolled_at timestamptz not null default now()
      );
      -- Every day's counts: rolled-up days from the aggregates, the others straight from the events.
      create view analytics_counts as
        select day, type, path, product, term, key, count, total from analytics_daily
        union all
        select (e.occurred_at at time zone 'UTC')::date as day, e.type, e.path, e.product, e.term, e.key,
               count(*)::bigint as count, coalesce(sum(e.value), 0)::float8 as total
        from analytics_events e
        where not exists (select 1 from analytics_rollups r where r.day = (e.occurred_at at time zone 'UTC')::date)
        group by 1, 2, 3, 4, 5, 6;
    `,
  },
  {
    version: 14,
    name: 'search documents by facet key',
    sql: /* sql */ `
      -- A search filtered to a few products or types intersects this with the word index, so only
      -- the filtered rows' vectors are read (without it a frequent word read every vector).
      create index search_documents_facet_idx on search_documents (facet_key);
    `,
  },
  {
    version: 15,
    name: 'sessions ended before their time',
    sql: /* sql */ `
      -- Per subject (account id): raised by a password change, a reset or disabling the account; a
      -- session cookie started in a lower generation is over (server/identity/revocation.ts).
      create table session_generations (
        subject     text primary key,
        generation  integer not null
      );
      -- Single sessions signed out, until their cookies would have expired on their own.
      create table ended_sessions (
        sid         text primary key,
        expires_at  timestamptz not null
      );
      create index ended_sessions_expires_idx on ended_sessions (expires_at);
    `,
  },
  {
    version: 16,
    name: 'redirects and missed pages',
    sql: /* sql */ `
      -- Old paths answered with a 301 (server/content/redirects.ts): 'file' rows are the content's
      -- redirects.yaml, replaced by every import; 'rename' rows are paths an entry answered on before an
      -- import moved it, kept (their target followed to the entry's current path) until a page takes the path.
      create table content_redirects (
        from_path  text primary key,
        to_path    text not null,
        source     text not null check (source in ('file', 'rename')),
        entry_id   text,
        version    text,
        created_at timestamptz not null default now()
      );
      create index content_redirects_entry_idx on content_redirects (entry_id);
      -- Requests the not-found page answered, per path and UTC day (server/routes/misses.ts); bounded there.
      create table page_misses (
        day   date not null,
        path  text not null,
        count bigint not null,
        primary key (day, path)
      );
    `,
  },
  {
    version: 17,
    name: 'flag definitions with the content',
    sql: /* sql */ `
      -- The content tree's flags.json as imported (null: the tree had none): every instance evaluates
      -- flags from the latest import's, so a publish on one instance changes flags on all.
      alter table content_imports add column flags text;
    `,
  },
  {
    version: 18,
    name: 'accounts people manage themselves',
    sql: /* sql */ `
      -- Accounts made by an operator count as confirmed; one opened on the sign-up page is not, until
      -- its owner follows the link e-mailed to them (server/identity/self-service/).
      alter table accounts add column email_verified boolean not null default true;
      -- Links e-mailed for confirming an address or resetting a password: the link itself is signed and
      -- carries its expiry; this row makes it single-use (used_at) and is found by the link's nonce.
      create table account_links (
        nonce       text primary key,
        account_id  text not null references accounts (id) on delete cascade,
        purpose     text not null check (purpose in ('verify', 'reset')),
        expires_at  timestamptz not null,
        used_at     timestamptz,
        created_at  timestamptz not null default now()
      );
      create index account_links_account on account_links (account_id);
      -- Account e-mails waiting to be sent (an outbox): written with the link, sent after the commit,
      -- tried again with backoff while the SMTP server refuses; the body is emptied once sent.
      create table account_mail (
        id               bigserial primary key,
        recipient        text not null,
        subject          text not null,
        body             text not null,
        attempts         integer not null default 0,
        next_attempt_at  timestamptz not null default now(),
        claimed_until    timestamptz,
        sent_at          timestamptz,
        failed           boolean not null default false,
        last_error       text,
        created_at       timestamptz not null default now()
      );
      create index account_mail_due on account_mail (next_attempt_at) where sent_at is null and not failed;
    `,
  },
  {
    version: 19,
    name: 'replies on support requests, notifications to requesters, what each account last saw',
    sql: /* sql */ `
      -- A request's conversation: replies by its requester, a named contact of its account, staff, or the
      -- helpdesk (POST /api/requests/{reference}/comments). Written with their files and deliveries in
      -- one transaction, like the request itself.
      create table support_request_comments (
        id               bigint generated always as identity primary key,
        reference        text not null references support_requests (reference) on delete cascade,
        -- Who wrote it: 'requester', 'contact', 'staff', 'helpdesk'.
        author           text not null,
        -- The signed-in account that wrote it (the issuer's subject); null for the helpdesk and link holders.
        account_id       text,
        author_name      text not null default '',
        body             text not null,
        -- The random key the reply form carried (a double submit stores one reply), or the helpdesk's own
        -- id for the comment (a call sent again stores one comment).
        submission_key   text,
        created_at       timestamptz not null default now(),
        unique (reference, submission_key)
      );
      create index support_request_comments_ref_idx on support_request_comments (reference, created_at, id);

      -- A reply's files sit beside the request's own, marked with the reply they came with.
      alter table support_request_attachments add column comment_id bigint references support_request_comments (id) on delete cascade;

      -- One delivery per request and channel as before, one per reply and channel, and (channel
      -- 'requester': the e-mail telling the requester) one per status change or answer they are told of.
      alter table support_deliveries add column comment_id bigint references support_request_comments (id) on delete cascade;
      alter table support_deliveries add column update_id bigint references support_request_updates (id) on delete cascade;
      alter table support_deliveries drop constraint support_deliveries_reference_channel_key;
      create unique index support_deliveries_once_idx on support_deliveries (reference, channel, coalesce(comment_id, 0), coalesce(update_id, 0));

      -- When an account last opened a request's page: the list marks requests changed since.
      create table support_request_views (
        account_id       text not null,
        reference        text not null references support_requests (reference) on delete cascade,
        seen_at          timestamptz not null default now(),
        primary key (account_id, reference)
      );
    `,
  },
];
