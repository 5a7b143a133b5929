// The remote's utilities are scoped to its root element ([data-remote="settings"]). Unscoped, its stylesheet
// repeats utilities the shell also has (e.g. `hidden`) later in the same cascade layer, and those copies beat
// the shell's responsive variants (`lg:flex`) and break the shell's layout. Scoped, the remote's rules apply
// only inside the remote and win there, so both sheets stay internally ordered.
const REMOTE_SCOPE = '[data-remote="settings"]';

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

const scopeRemoteUtilities = () => ({
  postcssPlugin: 'ledgerline-scope-remote-utilities',
  OnceExit(root) {
    root.walkRules((rule) => {
      if (isScopable(rule)) rule.selectors = rule.selectors.map((selector) => `${REMOTE_SCOPE} ${selector}`);
    });
  },
});
scopeRemoteUtilities.postcss = true;

export default {
  plugins: [(await import('@tailwindcss/postcss')).default(), scopeRemoteUtilities()],
};
