/**
 * Settings are spelt in camelCase (`maxBacktrackAttempts`); the seeds spell
 * them in snake_case (`max_backtrack_attempts`, `window_size`). A key that is
 * no setting gets a hint naming the setting it spells, when it spells one.
 */

/** ` (settings are spelt in camelCase: windowSize)` when `key` is another spelling of one of `settings`, else ''. */
export function settingHint(key: string, settings: readonly string[]): string {
  const camel = key.toLowerCase().replace(/[_-]+([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
  const meant = settings.find((setting) => setting !== key && setting.toLowerCase() === camel.toLowerCase());
  return meant === undefined ? '' : ` (settings are spelt in camelCase: ${meant})`;
}
