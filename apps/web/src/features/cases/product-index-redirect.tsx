import { Navigate } from 'react-router';

/** /my-product/:id redirects to /home (§2). */
export function ProductIndexRedirect() {
  return <Navigate to="/home" replace />;
}
