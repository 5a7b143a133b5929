{{/*
Prometheus Operator ServiceMonitor scraping /metrics on port `http`, when serviceMonitor.enabled (needs
the monitoring.coreos.com CRDs). Reads: serviceMonitor.enabled, .interval, .labels.
*/}}
{{- define "ledgerline-lib.serviceMonitor" -}}
{{- if .Values.serviceMonitor.enabled -}}
apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
    {{- with .Values.serviceMonitor.labels }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
spec:
  selector:
    matchLabels:
      {{- include "ledgerline-lib.selectorLabels" . | nindent 6 }}
  endpoints:
    - port: http
      path: /metrics
      interval: {{ .Values.serviceMonitor.interval | default "30s" }}
{{- end -}}
{{- end -}}
