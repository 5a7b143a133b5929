import { remotePostcssConfig } from '@ledgerline/ui/postcss-remote';

export default await remotePostcssConfig('reports');
