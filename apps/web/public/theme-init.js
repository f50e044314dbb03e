/* global document, window */
// Loaded by index.html before the stylesheet and the app, as a plain blocking script: the first paint then already has
// the chosen theme, with no flash of light in a dark room. The CSP forbids inline scripts, hence a file of its own.
// It mirrors startTheme() in src/lib/theme/theme.ts (key 'opsdeck.theme': 'light' | 'dark', absent = follow the
// system), which takes over when the app starts and keeps following the system and other tabs.
(function applyStoredTheme() {
  var root = document.documentElement;
  var stored = null;
  try {
    stored = localStorage.getItem('opsdeck.theme');
  } catch {
    // Storage refused (privacy settings): the system preference decides.
    stored = null;
  }
  var systemDark = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-color-scheme: dark)').matches;
  var theme = stored === 'light' || stored === 'dark' ? stored : systemDark ? 'dark' : 'light';
  root.classList.toggle('dark', theme === 'dark');
  root.style.colorScheme = theme;
})();
