import { auditPageTypes } from './browser.ts';

auditPageTypes(false);
