/**
 * What a file is for, from its path: code, its tests, or the material around code (examples,
 * docs, benchmarks, generated and vendored files), which a task needs less often than the code.
 */
export const FILE_ROLES = ['code', 'test', 'auxiliary'] as const;
export type FileRole = (typeof FILE_ROLES)[number];

const TEST_FOLDER = /(^|\/)(tests?|__tests__|spec|specs|testing|testdata|test_?utils?|fixtures?|__mocks__|mocks?)\//i;
const TEST_FILE = /(^|\/)(test_[^/]*|conftest\.py|[^/]*(_test|_tests|\.test|\.spec|-test|-spec|Tests?|IT)\.[a-z]+)$/;
const JAVA_TEST_ROOT = /(^|\/)src\/(test|it|integrationTest|testFixtures)\//;
const AUXILIARY_FOLDER =
  /(^|\/)(examples?|samples?|demos?|docs?|documentation|benches|benchmarks?|bench|vendor|third_party|thirdparty|generated|gen|build|dist|scripts|tools|contrib)\//i;
const AUXILIARY_FILE = /(\.min\.js|\.d\.ts|\.pb\.go|_pb2\.py|\.generated\.[a-z]+|_generated\.[a-z]+)$/;

export function fileRoleOf(path: string): FileRole {
  if (TEST_FOLDER.test(path) || TEST_FILE.test(path) || JAVA_TEST_ROOT.test(path)) return 'test';
  if (AUXILIARY_FOLDER.test(path) || AUXILIARY_FILE.test(path)) return 'auxiliary';
  return 'code';
}
