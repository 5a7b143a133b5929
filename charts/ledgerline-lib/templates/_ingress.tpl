{{/*
Ingress to the chart's Service (port `http`), when ingress.enabled: the gateway (the API host) and the web
app. TLS certificates come from existing Secrets (ingress.tls[].secretName, e.g. made by cert-manager).
Reads: ingress.enabled, .className, .annotations, .hosts[].host, .hosts[].paths[].path/.pathType, .tls.
*/}}
{{- define "ledgerline-lib.ingress" -}}
{{- if .Values.ingress.enabled -}}
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
  {{- with .Values.ingress.annotations }}
  annotations:
    {{- toYaml . | nindent 4 }}
  {{- end }}
spec:
  {{- with .Values.ingress.className }}
  ingressClassName: {{ . }}
  {{- end }}
  {{- with .Values.ingress.tls }}
  tls:
    {{- range . }}
    - secretName: {{ .secretName }}
      hosts:
        {{- toYaml .hosts | nindent 8 }}
    {{- end }}
  {{- end }}
  rules:
    {{- $service := include "ledgerline-lib.fullname" . }}
    {{- range .Values.ingress.hosts }}
    - host: {{ .host | quote }}
      http:
        paths:
          {{- range (.paths | default (list (dict "path" "/" "pathType" "Prefix"))) }}
          - path: {{ .path }}
            pathType: {{ .pathType | default "Prefix" }}
            backend:
              service:
                name: {{ $service }}
                port:
                  name: http
          {{- end }}
    {{- end }}
{{- end -}}
{{- end -}}
