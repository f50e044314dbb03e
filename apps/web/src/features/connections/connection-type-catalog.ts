import {
  Bell,
  Cloud,
  Container,
  Database,
  FolderOpen,
  GitBranch,
  GitPullRequest,
  Globe,
  HardDrive,
  KeyRound,
  Mail,
  MessageSquare,
  Monitor,
  Search,
  Server,
  Send,
  Webhook,
  type LucideIcon,
} from 'lucide-react';
import {
  CONNECTION_TYPE_SPECS,
  CONNECTION_TYPES,
  FALLBACK_CONNECTION_FIELDS,
  type ConnectionType,
  type ConnectionTypeSpec,
} from '@opsdeck/shared';

export type { ConnectionCategory, ConnectionFieldDefinition, ConnectionFieldInput, ConnectionFieldPath } from '@opsdeck/shared';

/** A connection type as the form shows it: its fields, required flags and defaults come from the shared spec. */
export interface ConnectionTypeDefinition extends ConnectionTypeSpec {
  type: string;
  icon: LucideIcon;
}

const ICONS: Readonly<Record<ConnectionType, LucideIcon>> = {
  postgres: Database,
  mysql: Database,
  sql_server: Database,
  http: Globe,
  prometheus: Server,
  elasticsearch: Search,
  mongo: Database,
  ldap: KeyRound,
  redis: Database,
  windows: Monitor,
  google_cloud: Cloud,
  sftp: HardDrive,
  aws: Cloud,
  s3: Cloud,
  kubernetes: Container,
  azure_devops: Cloud,
  azure: Cloud,
  github: GitPullRequest,
  restic: HardDrive,
  smb: HardDrive,
  jmeter: Server,
  dynatrace: Server,
  folder: FolderOpen,
  git: GitBranch,
  discord: MessageSquare,
  email: Mail,
  google_chat: MessageSquare,
  ifttt: Bell,
  mattermost: MessageSquare,
  matrix: MessageSquare,
  ntfy: Bell,
  opsgenie: Bell,
  pushbullet: Bell,
  pushover: Bell,
  rocketchat: MessageSquare,
  slack: MessageSquare,
  slackwebhook: MessageSquare,
  teams: MessageSquare,
  telegram: Send,
  zulip_chat: MessageSquare,
  generic_webhook: Webhook,
  webhook: Webhook,
};

/** Every connection type of spec 002 §3, in the order the type grid shows them, so every stored type can be edited. */
export const CONNECTION_TYPE_CATALOG: readonly ConnectionTypeDefinition[] = CONNECTION_TYPES.map((type) => ({
  type,
  icon: ICONS[type],
  ...CONNECTION_TYPE_SPECS[type],
}));

const BY_TYPE = new Map(CONNECTION_TYPE_CATALOG.map((definition) => [definition.type, definition]));

/** The types offered in the grid, in catalog order. */
export const SELECTABLE_CONNECTION_TYPES = CONNECTION_TYPE_CATALOG.filter((definition) => !definition.hidden);

/** The definition of a stored type; an unknown type (from another system) gets a plain URL and credentials form. */
export function connectionTypeDefinition(type: string): ConnectionTypeDefinition {
  return BY_TYPE.get(type) ?? { type, label: type, icon: Server, category: 'data', fields: FALLBACK_CONNECTION_FIELDS };
}
