// PostCSS for a remote. The remote's utilities are scoped to its root element ([data-remote="<name>"]).
// Unscoped, its stylesheet repeats utilities the shell also has (e.g. `hidden`) later in the same cascade
// layer, and those copies beat the shell's responsive variants (`lg:flex`) and break the shell's layout.
// Scoped, the remote's rules apply only inside the remote and win there, so both sheets stay internally ordered.

function isScopable(rule) {
  let inUtilities = false;
  for (let node = rule.parent; node && node.type !== 'root'; node = node.parent) {
    // Nested rules inherit the scope from the rule they sit in.
    if (node.type === 'rule') return false;
    if (node.type === 'atrule' && /keyframes$/i.test(node.name)) return false;
    if (node.type === 'atrule' && node.name === 'layer' && node.params.trim() === 'utilities') inUtilities = true;
  }
  return inUtilities;
}

function scopeRemoteUtilities(scope) {
  const plugin = () => ({
    postcssPlugin: 'ledgerline-scope-remote-utilities',
    OnceExit(root) {
      root.walkRules((rule) => {
        if (isScopable(rule)) rule.selectors = rule.selectors.map((selector) => `${scope} ${selector}`);
      });
    },
  });
  plugin.postcss = true;
  return plugin();
}

/** The PostCSS config of the remote named `remote` (its root element carries data-remote="<remote>"). */
export async function remotePostcssConfig(remote) {
  return { plugins: [(await import('@tailwindcss/postcss')).default(), scopeRemoteUtilities(`[data-remote="${remote}"]`)] };
}
