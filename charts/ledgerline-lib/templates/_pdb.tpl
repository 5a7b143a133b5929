{{/*
PodDisruptionBudget, when podDisruptionBudget.enabled: minAvailable if set, else maxUnavailable
(default 1, so a single replica can still be drained). Reads: podDisruptionBudget.*.
*/}}
{{- define "ledgerline-lib.pdb" -}}
{{- if .Values.podDisruptionBudget.enabled -}}
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
spec:
  {{- if .Values.podDisruptionBudget.minAvailable }}
  minAvailable: {{ .Values.podDisruptionBudget.minAvailable }}
  {{- else }}
  maxUnavailable: {{ .Values.podDisruptionBudget.maxUnavailable | default 1 }}
  {{- end }}
  selector:
    matchLabels:
      {{- include "ledgerline-lib.selectorLabels" . | nindent 6 }}
{{- end -}}
{{- end -}}
