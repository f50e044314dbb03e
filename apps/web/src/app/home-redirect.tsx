import { Navigate } from 'react-router';
import { homePath } from './navigation';
import { useVisibleNavigation } from './use-visible-navigation';

export function HomeRedirect() {
  const navigation = useVisibleNavigation();
  return <Navigate to={homePath(navigation)} replace />;
}
