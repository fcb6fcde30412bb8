import { auditPageTypes } from './browser.ts';

auditPageTypes(true);
