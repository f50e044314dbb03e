import { AppError } from '../../platform/errors';

export const kubeconfigErrors = {
  postOnly: () =>
    new AppError(
      405,
      'OD_KUBECONFIG_POST_ONLY',
      'A kubeconfig is minted by POST only',
      'GET /api/kubeconfig',
      'Send POST /api/kubeconfig from the console (or with X-Requested-With): a GET would let any site that links here mint a session',
    ),
} as const;
