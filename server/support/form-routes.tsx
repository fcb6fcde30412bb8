import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/** The contact, hot-contact, partner, status-page, file-download and report-a-problem forms. */
export default async function formRoutes(_app: FastifyInstance, _opts: { config: Config }) {}
