import type { RawConfig } from './config.schema.js';

/** Where the Kubernetes client gets its connection from, after merging the flat and HEAD key forms. */
export interface KubernetesConfig {
  inCluster: boolean;
  kubeconfigPath: string;
  server?: string;
  token?: string;
  caFile?: string;
  insecureSkipTlsVerify: boolean;
  secretsNamespace: string;
  tlsCertName: string;
  pullCredName: string;
}

export interface PlatformImages {
  configurator: string;
  jupyter: string;
  copier: string;
  imageVersion: string;
}

/** The validated, resolved configuration every app receives. */
export type AntidoteConfig = Omit<
  RawConfig,
  'k8sInCluster' | 'k8sOutOfClusterConfigPath' | 'secretsNamespace' | 'tlsCertName' | 'pullCredName' | 'backendConfigs' | 'images'
> & {
  kubernetes: KubernetesConfig;
  images: PlatformImages;
  /** The file the configuration came from, if any. */
  source?: string;
};
