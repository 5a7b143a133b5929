{{/* The service's ClusterIP Service, port `http`. Reads: service.type, service.port. */}}
{{- define "ledgerline-lib.service" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
spec:
  type: {{ .Values.service.type | default "ClusterIP" }}
  ports:
    - name: http
      port: {{ .Values.service.port | default 80 }}
      targetPort: http
      protocol: TCP
  selector:
    {{- include "ledgerline-lib.selectorLabels" . | nindent 4 }}
{{- end -}}
