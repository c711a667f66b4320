/**
 * Cloud metadata and platform services: who holds one of these addresses can read a node's credentials
 * (instance roles, bootstrap tokens, user data), so no lesson traffic and no health probe may reach them,
 * whatever else the configuration allows. One entry per service, with who serves it (for refusals).
 */
export const METADATA_SERVICES: readonly { cidr: string; service: string }[] = [
  { cidr: '169.254.169.254/32', service: 'the metadata service of AWS, GCP, Azure, OpenStack, Oracle Cloud, DigitalOcean, Huawei' },
  { cidr: '169.254.170.2/32', service: 'the AWS ECS task metadata and credentials service' },
  { cidr: '169.254.0.23/32', service: 'the Tencent Cloud metadata service' },
  { cidr: '100.100.100.200/32', service: 'the Alibaba Cloud metadata service' },
  { cidr: '168.63.129.16/32', service: 'the Azure WireServer' },
  { cidr: '192.0.0.192/32', service: 'the Oracle Cloud Classic metadata service' },
  { cidr: 'fd00:ec2::254/128', service: 'the AWS metadata service (IPv6)' },
  { cidr: 'fd20:ce::254/128', service: 'the Google Cloud metadata service (IPv6)' },
];
