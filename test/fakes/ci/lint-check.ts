/**
 * A small, real check of a `.travis.yml`, in the spirit of the service's linter: YAML must parse,
 * top-level keys must be known, `language` must be present and one the service knows.
 */
import { parseDocument } from 'yaml';

export interface LintWarning {
  key: string[];
  message: string;
}

const KNOWN_KEYS = words(`
  language os dist arch osx_image sudo group env matrix jobs stages import version if services
  addons cache git branches notifications deploy before_install install before_script script
  after_script after_success after_failure before_cache before_deploy after_deploy compiler rvm
  gemfile bundler_args jdk node_js python php perl go go_import_path gobuild_args scala julia r
  rust d dart elixir otp_release ghc smalltalk crystal haxe mono dotnet solution xcode_project
  xcode_workspace xcode_scheme xcode_sdk podfile android lein nix filter_secrets virt conditions
  source_key
`);

const LANGUAGES = words(`
  android bash c c++ clojure cpp crystal csharp d dart elixir elm erlang generic go groovy haskell
  haxe java javascript julia jvm minimal nix node node_js objective-c perl perl6 php python r ruby
  rust scala sh shell smalltalk swift
`);

const DEFAULT_LANGUAGE = 'ruby';

function words(list: string): Set<string> {
  return new Set(list.split(/\s+/).filter((word) => word !== ''));
}

export function lintConfig(content: string): LintWarning[] {
  const document = parseDocument(content);
  const error = document.errors[0];
  if (error) return [{ key: [], message: `syntax error: ${error.message.split('\n')[0]}` }];
  const config: unknown = document.toJS() ?? {};
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    return [{ key: [], message: 'the configuration must be a mapping of keys to values' }];
  }
  const warnings: LintWarning[] = [];
  const entries = Object.entries(config);
  for (const [key] of entries) {
    if (!KNOWN_KEYS.has(key)) warnings.push({ key: [key], message: `unexpected key "${key}", dropping` });
  }
  const language = entries.find(([key]) => key === 'language')?.[1];
  if (language === undefined || language === null) {
    warnings.push({
      key: ['language'],
      message: `missing key "language", defaulting to "${DEFAULT_LANGUAGE}"`,
    });
  } else if (typeof language !== 'string' || !LANGUAGES.has(language.toLowerCase())) {
    warnings.push({
      key: ['language'],
      message: `illegal value ${JSON.stringify(language)}, defaulting to "${DEFAULT_LANGUAGE}"`,
    });
  }
  return warnings;
}
