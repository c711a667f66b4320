/**
 * Kubernetes name rules (apimachinery `validation.go`), written once: namespaces, Services, pods,
 * endpoint and presentation names, HEP domain labels and ids all follow them.
 */
export const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const DNS1123_LABEL_MAX = 63;
/** A DNS-1123 label starting with a letter (Service names). */
export const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
/** DNS-1123 labels joined by dots. */
export const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_LABEL.source.slice(1, -1)}(\\.${DNS1123_LABEL.source.slice(1, -1)})*$`);
export const DNS1123_SUBDOMAIN_MAX = 253;

export const isDnsLabel = (name: string): boolean => name.length <= DNS1123_LABEL_MAX && DNS1123_LABEL.test(name);
export const isDns1035Label = (name: string): boolean => name.length <= DNS1123_LABEL_MAX && DNS1035_LABEL.test(name);
export const isDnsSubdomain = (name: string): boolean => name.length <= DNS1123_SUBDOMAIN_MAX && DNS1123_SUBDOMAIN.test(name);
