/** The languages records are made for: apart from fileRecord.ts so that option tables can list them without loading it. */
export const LANGUAGES = ['python', 'javascript', 'typescript', 'tsx', 'rust', 'go', 'java'] as const;
export type Language = (typeof LANGUAGES)[number];
