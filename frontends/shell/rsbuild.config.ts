import { shellConfig } from '@ledgerline/ui/federation';

// Applies the stored theme before the first paint so a dark-mode user never sees a white flash.
const themeScript = `try{var t=localStorage.getItem('ledgerline:theme');if(t==='dark'||(!t&&matchMedia('(prefers-color-scheme: dark)').matches))document.documentElement.classList.add('dark')}catch(e){}`;

// The one Module Federation preset (frontends/ui/federation.ts): the shared singletons, React, precompression;
// remotes are registered at run time from /config.json (src/federation.ts), so none are listed here.
export default shellConfig({
  port: 3000,
  html: {
    title: 'Ledgerline',
    tags: [{ tag: 'script', children: themeScript, head: true, append: false }],
    meta: { description: 'Ledgerline: bookkeeping and accounting for startups and the firms that keep their books.' },
  },
});
