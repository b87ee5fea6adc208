/**
 * Files a reader wants to see first whatever their rank: aider's list (aider/special.py) of
 * documentation, manifests, build, CI and tool configuration files.
 *
 * aider matches a name anywhere in the tree, so every `__init__.py` and `settings.py` of a
 * Django project would count, and the map would open with dozens of package markers; aider
 * never shows it because its own prepending is a no-op. Ours counts the repository's own
 * files: names at the root, and the listed paths (`.github/workflows/*.yml`,
 * `.circleci/config.yml`, `docs/conf.py`, …) from the root.
 */
const IMPORTANT_FILES = new Set([
  '.gitignore', '.gitattributes',
  'README.md', 'CONTRIBUTING.md', 'LICENSE', 'CHANGELOG.md', 'SECURITY.md', 'CODEOWNERS',
  'requirements.txt', 'Pipfile', 'Pipfile.lock', 'pyproject.toml', 'setup.py', 'setup.cfg',
  'package.json', 'package-lock.json', 'yarn.lock', 'npm-shrinkwrap.json', 'Gemfile', 'Gemfile.lock',
  'composer.json', 'composer.lock', 'pom.xml', 'build.gradle', 'build.sbt', 'go.mod', 'go.sum',
  'Cargo.toml', 'Cargo.lock', 'mix.exs', 'rebar.config', 'project.clj', 'Podfile', 'Cartfile',
  'dub.json', 'dub.sdl',
  '.env', '.env.example', '.editorconfig', 'tsconfig.json', 'jsconfig.json', '.babelrc', 'babel.config.js',
  '.eslintrc', '.eslintignore', '.prettierrc', '.stylelintrc', 'tslint.json', '.pylintrc', '.flake8',
  '.rubocop.yml', '.scalafmt.conf', '.dockerignore', '.gitpod.yml', 'sonar-project.properties',
  'renovate.json', 'dependabot.yml', '.pre-commit-config.yaml', 'mypy.ini', 'tox.ini', '.yamllint',
  'pyrightconfig.json',
  'Makefile', 'CMakeLists.txt', 'webpack.config.js', 'rollup.config.js', 'parcel.config.js', 'gulpfile.js',
  'Gruntfile.js', 'build.xml', 'build.boot', 'project.json', 'build.cake', 'MANIFEST.in',
  'pytest.ini', 'phpunit.xml', 'karma.conf.js', 'jest.config.js', 'cypress.json', 'conftest.py', '.nycrc',
  '.nycrc.json',
  '.travis.yml', '.gitlab-ci.yml', 'Jenkinsfile', 'azure-pipelines.yml', 'bitbucket-pipelines.yml',
  'appveyor.yml', 'circle.yml', '.circleci/config.yml', '.github/dependabot.yml', 'codecov.yml', '.coveragerc',
  'Dockerfile', 'docker-compose.yml', 'docker-compose.override.yml',
  'serverless.yml', 'firebase.json', 'now.json', 'netlify.toml', 'vercel.json', 'app.yaml', 'terraform.tf',
  'main.tf', 'cloudformation.yaml', 'cloudformation.json', 'ansible.cfg', 'kubernetes.yaml', 'k8s.yaml',
  'schema.sql', 'liquibase.properties', 'flyway.conf',
  'manage.py', 'settings.py', 'config/routes.rb', 'Rakefile', 'next.config.js', 'nuxt.config.js',
  'vue.config.js', 'angular.json', 'gatsby-config.js', 'gridsome.config.js',
  'swagger.yaml', 'swagger.json', 'openapi.yaml', 'openapi.json',
  '__init__.py', 'stack.yaml', 'package.yaml', '.htaccess', '.bowerrc',
  '.nvmrc', '.ruby-version', '.python-version', 'Vagrantfile',
  '.codeclimate.yml', 'mkdocs.yml', '_config.yml', 'book.toml', 'docs/conf.py', 'readthedocs.yml',
  '.readthedocs.yaml', '.npmrc', '.yarnrc', '.vscode/settings.json', '.idea/workspace.xml', '.sublime-project',
  '.vim', '_vimrc', '.isort.cfg', '.markdownlint.json', '.markdownlint.yaml', '.bandit', '.secrets.baseline',
  '.pypirc', '.gitkeep', '.npmignore',
]);

/** Whether a repository-relative path is one of the repository's important files. */
export function isImportantFile(path: string): boolean {
  if (IMPORTANT_FILES.has(path)) return true;
  return /^\.github\/workflows\/[^/]+\.yml$/.test(path) || /^kubernetes\/[^/]+\.yaml$/.test(path);
}
