// The one copy of React Router the shell and every remote share (frontends/ui/federation.ts). A shared module is
// never tree-shaken (a remote may ask for any of its exports), so sharing 'react-router' itself put the whole
// package, server rendering, sessions and cookies included, into every first load. This module provides the part the
// web app uses; test/shared-router.test.ts fails when a screen imports a name from 'react-router' that is missing
// here. `@ledgerline/react-router-entry` is the package's own entry (an alias in the preset), so this import is not itself
// answered from the share scope.
export {
  Link,
  NavLink,
  Navigate,
  Outlet,
  createBrowserRouter,
  generatePath,
  isRouteErrorResponse,
  matchPath,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useOutletContext,
  useParams,
  useRouteError,
  useSearchParams,
} from '@ledgerline/react-router-entry';
