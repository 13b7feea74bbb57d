import { Navigate } from 'react-router';

/** /my-account opens its first page. */
export function ToAccountInformation() {
  return <Navigate to="/my-account/account-information" replace />;
}
