{{/*
Default-deny NetworkPolicy for the service's pods, opening only what it needs:
- ingress on port `http` from the gateway (networkPolicy.fromGateway), from the pods of the charts named in
  networkPolicy.callers (the services that call this one: the registry's `calls`, reversed; charts/test checks
  both against services/platform's registry and the charts' *_URL settings), from the ingress controller's
  namespace (networkPolicy.fromIngress: the gateway and the web app) and, when serviceMonitor.enabled, from the
  monitoring namespace;
- egress to the pods of the charts named in networkPolicy.calls (port `http`), to the infrastructure named in
  networkPolicy.egressTo (dns, postgres, nats, otel, redis: where they run is in ledgerline-lib.networkPeers,
  overridable through global.networkPolicy), and to any address on networkPolicy.externalPorts (outside APIs:
  Plaid, SMTP, Google's signing keys).
A second policy covers the migration Job's pods (migration.enabled): no ingress; egress to DNS, PostgreSQL and
the collector only.
Reads: networkPolicy.enabled, .fromGateway, .fromIngress, .callers, .calls, .egressTo, .externalPorts,
.extraIngress, .extraEgress; serviceMonitor.enabled; migration.enabled (when declared).
*/}}
{{- define "ledgerline-lib.networkPolicy" -}}
{{- if .Values.networkPolicy.enabled -}}
{{- $root := . -}}
{{- $np := .Values.networkPolicy -}}
{{- $peers := include "ledgerline-lib.networkPeers" . | fromYaml -}}
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
spec:
  podSelector:
    matchLabels:
      {{- include "ledgerline-lib.selectorLabels" . | nindent 6 }}
  policyTypes:
    - Ingress
    - Egress
  ingress:
    {{- $callers := $np.callers | default list }}
    {{- if $np.fromGateway }}{{ $callers = prepend $callers "gateway" }}{{ end }}
    {{- if $callers }}
    - from:
        {{- range $callers }}
        - podSelector:
            matchLabels:
              app.kubernetes.io/name: {{ . }}
              app.kubernetes.io/instance: {{ $root.Release.Name }}
        {{- end }}
      ports:
        - port: http
          protocol: TCP
    {{- end }}
    {{- if $np.fromIngress }}
    - from:
        {{- include "ledgerline-lib.networkPeer" $peers.ingressController | nindent 8 }}
      ports:
        - port: http
          protocol: TCP
    {{- end }}
    {{- if .Values.serviceMonitor.enabled }}
    - from:
        {{- include "ledgerline-lib.networkPeer" $peers.monitoring | nindent 8 }}
      ports:
        - port: http
          protocol: TCP
    {{- end }}
    {{- with $np.extraIngress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
  egress:
    {{- range ($np.calls | default list) }}
    - to:
        - podSelector:
            matchLabels:
              app.kubernetes.io/name: {{ . }}
              app.kubernetes.io/instance: {{ $root.Release.Name }}
      ports:
        - port: http
          protocol: TCP
    {{- end }}
    {{- range ($np.egressTo | default list) }}
    {{- $peer := get $peers . }}
    {{- if not $peer }}{{ fail (printf "networkPolicy.egressTo: %q is not one of dns, postgres, nats, otel, redis" .) }}{{ end }}
    {{- include "ledgerline-lib.networkEgress" $peer | nindent 4 }}
    {{- end }}
    {{- with $np.externalPorts }}
    - to:
        - ipBlock:
            cidr: 0.0.0.0/0
      ports:
        {{- range . }}
        - port: {{ . }}
          protocol: TCP
        {{- end }}
    {{- end }}
    {{- with $np.extraEgress }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- $migration := get .Values "migration" | default dict }}
{{- if $migration.enabled }}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  name: {{ include "ledgerline-lib.fullname" . | trunc 55 | trimSuffix "-" }}-migrate
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
    app.kubernetes.io/component: migration
spec:
  podSelector:
    matchLabels:
      app.kubernetes.io/name: {{ include "ledgerline-lib.name" . }}-migrate
      app.kubernetes.io/instance: {{ .Release.Name }}
  policyTypes:
    - Ingress
    - Egress
  ingress: []
  egress:
    {{- range (list "dns" "postgres" "otel") }}
    {{- include "ledgerline-lib.networkEgress" (get $peers .) | nindent 4 }}
    {{- end }}
{{- end }}
{{- end -}}
{{- end -}}

{{/*
Where the infrastructure runs, as NetworkPolicy peers: pod labels, an optional namespace (empty: the release's
own) and ports. Defaults match deploy/infra (CloudNativePG cluster ledgerline-pg, the NATS, Redis and
OpenTelemetry Collector charts' labels, ingress-nginx, a `monitoring` namespace); global.networkPolicy.<peer>
overrides any of them key by key.
*/}}
{{- define "ledgerline-lib.networkPeers" -}}
{{- $global := .Values.global | default dict -}}
{{- $defaults := dict
  "dns" (dict "namespace" "kube-system" "podLabels" (dict "k8s-app" "kube-dns") "ports" (list (dict "port" 53 "protocol" "UDP") (dict "port" 53 "protocol" "TCP")))
  "postgres" (dict "namespace" "" "podLabels" (dict "cnpg.io/cluster" "ledgerline-pg") "ports" (list (dict "port" 5432 "protocol" "TCP")))
  "nats" (dict "namespace" "" "podLabels" (dict "app.kubernetes.io/name" "nats") "ports" (list (dict "port" 4222 "protocol" "TCP")))
  "otel" (dict "namespace" "" "podLabels" (dict "app.kubernetes.io/name" "opentelemetry-collector") "ports" (list (dict "port" 4318 "protocol" "TCP")))
  "redis" (dict "namespace" "" "podLabels" (dict "app.kubernetes.io/name" "redis") "ports" (list (dict "port" 6379 "protocol" "TCP")))
  "ingressController" (dict "namespace" "ingress-nginx" "podLabels" (dict))
  "monitoring" (dict "namespace" "monitoring" "podLabels" (dict))
-}}
{{- toYaml (mergeOverwrite $defaults (deepCopy ($global.networkPolicy | default dict))) -}}
{{- end -}}

{{/* One peer (podLabels, namespace) as a `from`/`to` list item. */}}
{{- define "ledgerline-lib.networkPeer" -}}
- {{- if .namespace }}
  namespaceSelector:
    matchLabels:
      kubernetes.io/metadata.name: {{ .namespace }}
  {{- end }}
  podSelector:
    {{- if .podLabels }}
    matchLabels:
      {{- toYaml .podLabels | nindent 6 }}
    {{- else }} {}
    {{- end }}
{{- end -}}

{{/* An egress rule to one peer on its ports. */}}
{{- define "ledgerline-lib.networkEgress" -}}
- to:
    {{- include "ledgerline-lib.networkPeer" . | nindent 4 }}
  ports:
    {{- toYaml .ports | nindent 4 }}
{{- end -}}
