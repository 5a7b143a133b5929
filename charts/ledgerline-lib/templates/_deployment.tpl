{{/*
The service's Deployment. Reads: replicaCount, autoscaling.enabled, image.*, port, env, secretEnv,
secret.*, serviceAccount.*, resources, podAnnotations, nodeSelector, tolerations, affinity, terminationGracePeriodSeconds.
*/}}
{{- define "ledgerline-lib.deployment" -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ include "ledgerline-lib.fullname" . }}
  labels:
    {{- include "ledgerline-lib.labels" . | nindent 4 }}
spec:
  {{- if not .Values.autoscaling.enabled }}
  replicas: {{ .Values.replicaCount }}
  {{- end }}
  revisionHistoryLimit: 5
  selector:
    matchLabels:
      {{- include "ledgerline-lib.selectorLabels" . | nindent 6 }}
  strategy:
    type: RollingUpdate
    rollingUpdate:
      maxUnavailable: 0
      maxSurge: 1
  template:
    metadata:
      labels:
        {{- include "ledgerline-lib.labels" . | nindent 8 }}
      {{- with .Values.podAnnotations }}
      annotations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
    spec:
      serviceAccountName: {{ include "ledgerline-lib.serviceAccountName" . }}
      automountServiceAccountToken: false
      {{- include "ledgerline-lib.imagePullSecrets" . | nindent 6 }}
      securityContext:
        {{- include "ledgerline-lib.podSecurityContext" . | nindent 8 }}
      # The service stops within 15 s of SIGTERM (platform runUntilSignal); preStop waits for endpoints to drop it.
      terminationGracePeriodSeconds: {{ .Values.terminationGracePeriodSeconds | default 30 }}
      containers:
        - name: {{ .Chart.Name }}
          image: {{ include "ledgerline-lib.image" . | quote }}
          imagePullPolicy: {{ .Values.image.pullPolicy | default "IfNotPresent" }}
          ports:
            - name: http
              containerPort: {{ .Values.port }}
              protocol: TCP
          env:
            {{- include "ledgerline-lib.env" . | nindent 12 }}
          envFrom:
            {{- include "ledgerline-lib.envFrom" . | nindent 12 }}
          startupProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 2
            failureThreshold: 30
          readinessProbe:
            httpGet:
              path: /readyz
              port: http
            periodSeconds: 5
            timeoutSeconds: 3
            failureThreshold: 3
          livenessProbe:
            httpGet:
              path: /healthz
              port: http
            periodSeconds: 10
            timeoutSeconds: 3
            failureThreshold: 3
          lifecycle:
            preStop:
              exec:
                command: ["sleep", "5"]
          resources:
            {{- toYaml (.Values.resources | default dict) | nindent 12 }}
          securityContext:
            {{- include "ledgerline-lib.containerSecurityContext" . | nindent 12 }}
          volumeMounts:
            - name: tmp
              mountPath: /tmp
      volumes:
        # The root filesystem is read-only; Node and libraries may still write temporary files.
        - name: tmp
          emptyDir:
            sizeLimit: 64Mi
      {{- with .Values.nodeSelector }}
      nodeSelector:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.tolerations }}
      tolerations:
        {{- toYaml . | nindent 8 }}
      {{- end }}
      {{- with .Values.affinity }}
      affinity:
        {{- toYaml . | nindent 8 }}
      {{- end }}
{{- end -}}
